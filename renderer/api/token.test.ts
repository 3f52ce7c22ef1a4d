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

  it('leaves the address bar with the route only, and is kept nowhere (the session cookie stands for it)', () => {
    window.history.replaceState(null, '', '/#/apps/app_1?token=s3cret');
    window.sessionStorage.clear();
    expect(takeTokenFromLocation(window.location, window.history, window.sessionStorage)).toBe('s3cret');
    expect(window.location.hash).toBe('#/apps/app_1');
    expect(window.location.href).not.toContain('s3cret');
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('s3cret');
    // A reload: no token any more (the browser is signed in by then).
    expect(takeTokenFromLocation(window.location, window.history, window.sessionStorage)).toBeNull();
  });

  it('takes a token an earlier version kept in sessionStorage out of it, once', () => {
    window.history.replaceState(null, '', '/#/apps');
    window.sessionStorage.setItem('clever-reaper.token', 'old');
    expect(takeTokenFromLocation(window.location, window.history, window.sessionStorage)).toBe('old');
    expect(window.sessionStorage.length).toBe(0);
    expect(takeTokenFromLocation(window.location, window.history, window.sessionStorage)).toBeNull();
  });
});
