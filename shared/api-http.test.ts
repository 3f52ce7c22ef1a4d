import { describe, expect, it } from 'vitest';
import { CALL_NAMES } from './api.ts';
import { fillPath, HTTP_ROUTES, matchPath, pathParams } from './api-http.ts';

describe('the HTTP routes of the ReaperApi', () => {
  it('give every call one method and path, none shared by two calls', () => {
    const seen = new Set<string>();
    for (const name of CALL_NAMES) {
      const route = HTTP_ROUTES[name];
      const key = `${route.method} ${route.path.replace(/:[a-zA-Z]+/g, ':')}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
    expect(seen.size).toBe(CALL_NAMES.length);
  });

  it('fill a path from the input and match it back, encoded', () => {
    const { path, rest } = fillPath('/api/apps/:appId/history', { appId: 'app_a b', limit: 5 });
    expect(path).toBe('/api/apps/app_a%20b/history');
    expect(rest).toEqual({ limit: 5 });
    expect(matchPath('/api/apps/:appId/history', path)).toEqual({ appId: 'app_a b' });
    expect(matchPath('/api/apps/:appId', path)).toBeNull();
    expect(pathParams('/api/owners/:ownerId/applications')).toEqual(['ownerId']);
  });

  it('match no empty parameter', () => {
    expect(matchPath('/api/apps/:appId', '/api/apps/')).toBeNull();
  });
});
