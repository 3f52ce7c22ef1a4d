import { describe, expect, it } from 'vitest';
import { splitToken, takeTokenFromLocation } from './token.ts';

describe('the admin token in the URL', () => {
  it('is taken out of the fragment, whether alone or after a route', () => {
    expect(splitToken('#token=abc')).toEqual({ token: 'abc', rest: '' });
    expect(splitToken('#token=abc&x=1')).toEqual({ token: 'abc', rest: '#x=1' });
    expect(splitToken('#/apps/app_1?token=abc')).toEqual({ token: 'abc', rest: '#/apps/app_1' });
    expect(splitToken('#/apps?state=Error&token=a%2Bb')).toEqual({
      token: 'a+b',
      rest: '#/apps?state=Error',
    });
    expect(splitToken('#/apps?state=Error')).toEqual({ token: null, rest: '#/apps?state=Error' });
    expect(splitToken('')).toEqual({ token: null, rest: '' });
  });

  it('goes to sessionStorage, and the address bar keeps the route only', () => {
    window.history.replaceState(null, '', '/#/apps/app_1?token=s3cret');
    window.sessionStorage.clear();
    expect(takeTokenFromLocation(window.location, window.history, window.sessionStorage)).toBe('s3cret');
    expect(window.location.hash).toBe('#/apps/app_1');
    expect(window.location.href).not.toContain('s3cret');
    // A reload: the token comes from sessionStorage.
    expect(takeTokenFromLocation(window.location, window.history, window.sessionStorage)).toBe('s3cret');
  });
});
