/**
 * The snapshot on the wire, over the real headless server with the demo's 1,000-app fleet: compressed
 * as the client accepts (brotli, gzip) and only then, `Vary: Accept-Encoding` either way; the
 * dashboard's form (by app) is the same data as the flat one, and fits the first screen's budget.
 * Bytes are counted as node:http receives them (no decoding on the way).
 */

import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/api.ts';
import {
  isSnapshotByApp,
  SNAPSHOT_BY_APP_PATH,
  snapshotByApp,
  snapshotFromForm,
} from '../../shared/snapshot-form.ts';
import { type Headless, startHeadless } from './headless.ts';

/** The first screen's budget for the snapshot of 1,000 apps, gzipped (issue 26). */
const WIRE_BUDGET = 100 * 1024;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: Headless;

function get(path: string, headers: Record<string, string>): Promise<Raw> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { authorization: `Bearer ${server.token.token}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function decoded(raw: Raw): unknown {
  const encoding = raw.headers['content-encoding'];
  const body =
    encoding === 'br'
      ? brotliDecompressSync(raw.body)
      : encoding === 'gzip'
        ? gunzipSync(raw.body)
        : raw.body;
  return JSON.parse(body.toString('utf8'));
}

beforeAll(async () => {
  server = await startHeadless({
    demo: true,
    scenario: 'fleet',
    host: '127.0.0.1',
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), 'reaper-wire-')),
    apiUrl: null,
    timeScale: 1,
    staticDir: null,
    env: {},
  });
  // Until the engine has read the whole fleet (the demo's first sweep).
  for (;;) {
    const snap = decoded(await get('/api/snapshot', {})) as Snapshot;
    if (snap.apps.length >= 1000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the snapshot on the wire', () => {
  it('is sent as it is when the client accepts no compression, with Vary', async () => {
    const asked: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'gzip;q=0, br;q=0' },
    ];
    for (const headers of asked) {
      const raw = await get('/api/snapshot', headers);
      expect(raw.status).toBe(200);
      expect(raw.headers['content-encoding']).toBeUndefined();
      expect(raw.headers.vary).toBe('Accept-Encoding');
      expect(Number(raw.headers['content-length'])).toBe(raw.body.length);
      expect((decoded(raw) as Snapshot).apps.length).toBeGreaterThanOrEqual(1000);
    }
  });

  it('is compressed with brotli or gzip as the client prefers, with Vary, to the same data', async () => {
    const plain = decoded(await get('/api/snapshot', { 'accept-encoding': 'identity' })) as Snapshot;
    const cases = [
      { accept: 'gzip, deflate, br, zstd', expected: 'br' },
      { accept: 'gzip, deflate', expected: 'gzip' },
      { accept: 'br;q=0.5, gzip', expected: 'gzip' },
      { accept: 'x-gzip', expected: 'gzip' },
      { accept: '*', expected: 'br' },
    ];
    for (const { accept, expected } of cases) {
      const raw = await get('/api/snapshot', { 'accept-encoding': accept });
      expect(raw.headers['content-encoding'], accept).toBe(expected);
      expect(raw.headers.vary).toBe('Accept-Encoding');
      expect(Number(raw.headers['content-length'])).toBe(raw.body.length);
      const snap = decoded(raw) as Snapshot;
      // The clock and the states move between two requests; the fleet itself does not.
      expect(snap.apps.map((a) => a.appId).sort()).toEqual(plain.apps.map((a) => a.appId).sort());
      expect(snap.routes.map((r) => r.id)).toEqual(plain.routes.map((r) => r.id));
    }
  });

  it('leaves small answers and errors uncompressed', async () => {
    const status = await get('/api/status', { 'accept-encoding': 'gzip, br' });
    expect(status.body.length).toBeLessThan(1024);
    expect(status.headers['content-encoding']).toBeUndefined();
    const missing = await get('/api/apps/app_nope', { 'accept-encoding': 'gzip, br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });

  it("in the dashboard's form, holds the same data and stays under 100 KB gzipped for 1,000 apps", async () => {
    const raw = await get(SNAPSHOT_BY_APP_PATH, { 'accept-encoding': 'gzip, deflate' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBe('gzip');
    const form = decoded(raw);
    if (!isSnapshotByApp(form)) throw new Error('not the snapshot by app');
    const flat = snapshotFromForm(form);
    expect(flat.apps.length).toBeGreaterThanOrEqual(1000);
    expect(flat.routes.length).toBeGreaterThanOrEqual(1000);
    // The same data as the flat form, the routes in the same order.
    const plain = decoded(await get('/api/snapshot', {})) as Snapshot;
    expect(flat.routes).toEqual(plain.routes);
    expect(flat.apps.map((a) => a.appId)).toEqual(plain.apps.map((a) => a.appId));
    expect(flat.rules).toEqual(plain.rules);
    expect(flat.settings).toEqual(plain.settings);
    expect(raw.body.length).toBeLessThan(WIRE_BUDGET);
    // Against the flat form gzipped: the reason for the form.
    const flatGzip = await get('/api/snapshot', { 'accept-encoding': 'gzip' });
    expect(raw.body.length).toBeLessThan(flatGzip.body.length * 0.8);
  });
});

describe('the snapshot by app', () => {
  const route = (id: string, appId: string) => ({
    id,
    appId,
    ownerId: 'orga_a',
    label: '',
    enabled: id !== 'r2',
    gracePeriodMs: 60_000,
    ranges: [],
    hosts: [],
    filters: { pathPrefixes: [], sources: [] },
    createdAt: 1,
    updatedAt: 2,
  });

  it('gives back the flat snapshot, routes in order, those of apps it does not list included', () => {
    const app = (appId: string, routeIds: string[]) =>
      ({ appId, name: appId, ownerId: 'orga_a', routeIds }) as unknown as Snapshot['apps'][number];
    const snapshot = {
      seq: 3,
      status: {} as Snapshot['status'],
      // Routes of one app apart from each other, one of an app not listed (released), one disabled.
      apps: [app('app_b', ['r1', 'r4']), app('app_a', ['r3'])],
      routes: [route('r1', 'app_b'), route('r2', 'app_gone'), route('r3', 'app_a'), route('r4', 'app_b')],
      rules: [],
      settings: {} as Snapshot['settings'],
    } satisfies Snapshot;
    const form = snapshotByApp(snapshot);
    expect(form.routes.map((r) => r.id)).toEqual(['r2']);
    expect(form.apps[0]?.routes?.map((r) => r.id)).toEqual(['r1', 'r4']);
    expect(JSON.stringify(form.apps[0]?.routes)).not.toContain('app_b');
    expect(snapshotFromForm(JSON.parse(JSON.stringify(form)))).toEqual(snapshot);
    const empty = { ...snapshot, apps: [], routes: [] };
    expect(snapshotFromForm(snapshotByApp(empty))).toEqual(empty);
  });

  it('refuses a form whose routes leave a gap', () => {
    const form = snapshotByApp({
      seq: 1,
      status: {} as Snapshot['status'],
      apps: [],
      routes: [route('r1', 'app_x'), route('r2', 'app_y')],
      rules: [],
      settings: {} as Snapshot['settings'],
    });
    form.routes = form.routes.filter((r) => r.id === 'r2');
    expect(() => snapshotFromForm(form)).toThrow(/do not fill their places/);
  });
});
