/**
 * Every input of the ReaperApi, and every request of the admin API, fuzzed with invalid and random
 * values: the answer is a typed error (or a success), never a crash or an internal error, and a
 * refused call changes nothing (routes, settings, app states are as before).
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CALL_NAMES, type CallName } from '../../shared/api.ts';
import { ApiError, toErrorBody } from '../../shared/api-errors.ts';
import { HTTP_ROUTES } from '../../shared/api-http.ts';
import { SECOND } from '../../shared/durations.ts';
import { type Headless, startHeadless } from '../server/headless.ts';
import { demoService } from '../testing/demo-service.ts';
import type { ReaperService } from './reaper-service.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

/** Values of every shape, and near-misses of the real ones (ids, times, enums, numbers at bounds). */
function nearMisses(ids: string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.anything({ maxDepth: 2 }),
    fc.constantFrom(...ids, 'app_', 'orga_x', 'user_', '', ' ', 'route_', '../../etc/passwd', '<script>'),
    fc.constantFrom(-1, 0, 1, 59_999, 60_000, Number.MAX_SAFE_INTEGER, 1e308, Number.NaN, -0, 0.5),
    fc.constantFrom('Up', 'Down', 'Error', 'up', 'Mon-Fri', '08:00', '25:00', 'Europe/Paris', 'Mars/Base'),
    fc.constantFrom(null, true, false, [], {}, '2026-01-05T09:00:00Z', 'yesterday'),
    fc.string({ maxLength: 300 }),
  );
}

const KEYS = [
  'appId',
  'ownerId',
  'routeId',
  'limit',
  'since',
  'source',
  'wait',
  'timeoutMs',
  'until',
  'search',
  'state',
  'errorsOnly',
  'label',
  'enabled',
  'gracePeriodMs',
  'ranges',
  'hosts',
  'filters',
  'changes',
  'killSwitch',
  'dryRun',
  'intervalMs',
  'fastIntervalMs',
  'failTimeoutMs',
  'restartAfterMs',
  'releaseDelayMs',
  'holdDeadlineMs',
  'wakeProxyPort',
  'wakeProxyAddress',
  'token',
  'secret',
  'days',
  'start',
  'end',
  'timeZone',
];

/** A valid input of each call, on the apps and routes of the running demo. */
function validInput(name: CallName, service: ReaperService): Record<string, unknown> {
  const s = service.current!;
  // Every app may be released already (valid releases): then ids that name nothing.
  const app = s.engine.list()[0] ?? { appId: 'app_none', ownerId: 'orga_none' };
  const route = s.config.routes()[0];
  const now = s.clock.now();
  switch (name) {
    case 'listApps':
      return { search: 'e', state: 'Up', errorsOnly: false };
    case 'getApp':
    case 'reset':
    case 'release':
      return { appId: app.appId };
    case 'history':
      return { appId: app.appId, limit: 10 };
    case 'wake':
      return { appId: app.appId, source: 'dashboard' };
    case 'keepAwake':
      return { appId: app.appId, until: now + 3_600_000 };
    case 'listRoutes':
      return { appId: app.appId };
    case 'getRoute':
    case 'deleteRoute':
      return { routeId: route?.id ?? 'route_none' };
    case 'createRoute':
      return {
        appId: app.appId,
        ownerId: app.ownerId,
        gracePeriodMs: 120_000,
        ranges: [{ days: 'Mon-Fri', start: '08:00', end: '19:00', timeZone: 'Europe/Paris' }],
        hosts: [],
      };
    case 'updateRoute':
      return { routeId: route?.id ?? 'route_none', changes: { gracePeriodMs: 7_200_000 } };
    case 'updateSettings':
      return { killSwitch: true, failTimeoutMs: 600_000 };
    case 'listOwnerApps':
      return { ownerId: app.ownerId };
    case 'connect':
      return { source: 'pasted', token: 'a-token' };
    default:
      return {};
  }
}

/** Valid inputs, valid inputs with one field broken, dropped or added, and inputs of any shape. */
function inputs(name: CallName, service: ReaperService): fc.Arbitrary<unknown> {
  const ids = [
    ...service.current!.engine.list().map((r) => r.appId),
    ...service.current!.config.routes().map((r) => r.id),
  ];
  const value = nearMisses(ids);
  const valid = fc.constant(null).map(() => validInput(name, service));
  const fields = Object.keys(validInput(name, service));
  const key = fields.length ? fc.constantFrom(...fields) : fc.constantFrom(...KEYS);
  return fc.oneof(
    valid,
    fc.tuple(valid, key, value).map(([v, k, x]) => ({ ...v, [k]: x })),
    fc.tuple(valid, key).map(([v, k]) => Object.fromEntries(Object.entries(v).filter(([kk]) => kk !== k))),
    fc
      .tuple(valid, fc.constantFrom(...KEYS, 'extra', '__proto__', 'constructor'), value)
      .map(([v, k, x]) => ({ ...v, [k]: x })),
    fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 }),
    value,
  );
}

describe('the ReaperApi with invalid input', () => {
  let service: ReaperService;

  // A fresh demo for each call: valid inputs change things (a release forgets an app...).
  beforeEach(async () => {
    const demo = demoService({ version: 'fuzz' });
    service = demo.service;
    const { clock } = demo;
    await service.start();
    await clock.advance(5 * SECOND);
  });
  afterEach(() => service.close());

  const state = () => {
    const s = service.current!;
    return JSON.stringify({
      routes: s.config.routes(),
      settings: s.config.settings(),
      apps: s.engine.list(),
    });
  };

  it.each(CALL_NAMES.filter((n) => n !== 'startDemo'))(
    `%s: a typed error or a success, and nothing half-applied (${RUNS} inputs)`,
    async (name: CallName) => {
      await fc.assert(
        fc.asyncProperty(inputs(name, service), async (input) => {
          // An app asked to be waited for on a manual clock would wait forever: not that, here.
          if (
            name === 'wake' &&
            input &&
            typeof input === 'object' &&
            (input as { wait?: unknown }).wait === true
          )
            return;
          const before = state();
          try {
            await service.call(name, input);
          } catch (error) {
            const body = toErrorBody(error);
            expect(body.error.code, `${name}(${JSON.stringify(input)}): ${String(error)}`).not.toBe(
              'internal',
            );
            expect(error instanceof ApiError || (error as Error).name !== 'TypeError').toBe(true);
            expect(state()).toBe(before);
          }
        }),
        { numRuns: RUNS, seed: 20261129 },
      );
    },
    60_000,
  );
});

describe('the admin API with invalid requests', () => {
  let server: Headless;
  const token = 'fuzz-admin-token-0123456789abcdef';
  beforeAll(async () => {
    server = await startHeadless({
      demo: true,
      scenario: 'e2e',
      host: '127.0.0.1',
      port: 0,
      dataDir: `${process.env.TMPDIR ?? '/tmp'}/reaper-fuzz-${process.pid}`,
      apiUrl: null,
      timeScale: 1,
      staticDir: null,
      env: { REAPER_ADMIN_TOKEN: token },
    });
  });
  afterAll(() => server.close());

  it(`never answers 500 and stays up (${RUNS * 5} requests)`, async () => {
    const paths = Object.values(HTTP_ROUTES).map((r) =>
      r.path.replace(/\{(\w+)\}/g, (_, k: string) => `:${k}`),
    );
    const path = fc.oneof(
      fc
        .constantFrom(...paths)
        .chain((p) =>
          fc
            .tuple(fc.constant(p), fc.string({ maxLength: 40 }))
            .map(([pp, id]) => pp.replace(/:\w+/g, encodeURIComponent(id) || 'x')),
        ),
      fc.string({ maxLength: 60 }).map((s) => `/api/${encodeURIComponent(s)}`),
      fc.constantFrom('/api', '/api/', '/api/apps/%2e%2e/x', '/api/apps//_reset'),
    );
    const method = fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS');
    const body = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue().map((v) => ({ text: JSON.stringify(v), type: 'application/json' })),
      fc.string({ maxLength: 200 }).map((s) => ({ text: s, type: 'application/json' })),
      fc.string({ maxLength: 200 }).map((s) => ({ text: s, type: 'text/plain' })),
    );
    await fc.assert(
      fc.asyncProperty(method, path, body, async (m, p, b) => {
        const answer = await fetch(`${server.url}${p}`, {
          method: m,
          headers: { authorization: `Bearer ${token}`, ...(b ? { 'content-type': b.type } : {}) },
          ...(b && m !== 'GET' ? { body: b.text } : {}),
        });
        await answer.arrayBuffer();
        expect(answer.status, `${m} ${p}`).not.toBe(500);
      }),
      { numRuns: RUNS * 5, seed: 20261129 },
    );
    expect(
      (await fetch(`${server.url}/api/status`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  }, 120_000);
});
