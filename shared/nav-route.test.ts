import { describe, expect, it } from 'vitest';
import { formatRoute, type NavRoute, parseRoute } from './nav-route.ts';

describe('the routes of the dashboard URL', () => {
  const cases: [string, NavRoute][] = [
    ['#/apps', { view: 'apps', id: null, params: {} }],
    ['#/apps?state=Error', { view: 'apps', id: null, params: { state: 'Error' } }],
    ['#/apps/app_0a1b-2c', { view: 'apps', id: 'app_0a1b-2c', params: {} }],
    [
      '#/history?app=app_x&cause=did+not+stop&from=2026-01-05T09%3A00',
      {
        view: 'history',
        id: null,
        params: { app: 'app_x', cause: 'did not stop', from: '2026-01-05T09:00' },
      },
    ],
    ['#/routes/route_12?q=shop', { view: 'routes', id: 'route_12', params: { q: 'shop' } }],
    ['#/rules', { view: 'rules', id: null, params: {} }],
  ];

  it.each(cases)('%s parses, and formats back the same', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
    expect(formatRoute(route)).toBe(hash);
    expect(parseRoute(formatRoute(route))).toEqual(route);
  });

  it('sorts the parameters and leaves empty ones out', () => {
    expect(formatRoute({ view: 'apps', id: null, params: { state: 'Down', q: '', errors: '1' } })).toBe(
      '#/apps?errors=1&state=Down',
    );
    expect(parseRoute('#/apps?q=&state=Up')).toEqual({ view: 'apps', id: null, params: { state: 'Up' } });
  });

  it('is not fooled by what is not a route', () => {
    for (const hash of [
      '',
      '#',
      '#token=abc',
      '#/',
      '#/a/b/c',
      '#/Apps',
      '#/apps/<script>',
      '#/apps/%E0%A4%A',
    ]) {
      expect(parseRoute(hash), hash).toBeNull();
    }
  });

  it('never holds the admin token: dropped when parsed, refused when formatted', () => {
    expect(parseRoute('#/apps/app_x?token=s3cret&state=Error')).toEqual({
      view: 'apps',
      id: 'app_x',
      params: { state: 'Error' },
    });
    expect(() => formatRoute({ view: 'apps', id: null, params: { token: 's3cret' } })).toThrow(/token/);
  });

  it('keeps a value with any character, encoded', () => {
    const route = { view: 'apps', id: null, params: { q: 'a&b=c #d/é' } };
    expect(parseRoute(formatRoute(route))).toEqual(route);
  });
});
