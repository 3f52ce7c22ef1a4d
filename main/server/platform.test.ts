/**
 * Where platforms run the server: PORT and 0.0.0.0 (Clever Cloud's Node.js runtime), one port for the
 * dashboard, the admin API and the wake proxy (routed by Host), and the probes GET /healthz and
 * GET /readyz, all through real HTTP on loopback.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Route } from '../../shared/routes.ts';
import { until } from '../testing/serve-process.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { parseCli, startupWarnings } from './cli.ts';
import { type Headless, type HeadlessOptions, startHeadless } from './headless.ts';
import { readiness } from './readiness.ts';

const ADMIN = 'admin-token-for-the-platform-tests';
let server: Headless | null = null;
let dataDir = '';
afterEach(async () => {
  await server?.close();
  server = null;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = '';
});

async function serve(options: Partial<HeadlessOptions> = {}) {
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-platform-'));
  server = await startHeadless({
    ...TEST_SERVER,
    demo: true,
    dataDir,
    env: { REAPER_ADMIN_TOKEN: ADMIN },
    ...options,
  });
  return server;
}

/** One request with the Host header chosen (fetch would not let a test set it). */
function get(
  path: string,
  host: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(server!.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('PORT, as Clever Cloud sets it', () => {
  it('listens on PORT, on every address, with the wake proxy on the same port', () => {
    expect(parseCli([], { PORT: '8080', REAPER_HOME: '/tmp/r' })).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      onePort: true,
    });
    // The flags still win; without PORT nothing changes.
    expect(parseCli(['--port', '9000', '--host', '127.0.0.1'], { PORT: '8080' })).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      onePort: true,
    });
    expect(parseCli([], {})).toMatchObject({ port: 7410, host: '127.0.0.1', onePort: false });
    expect(parseCli(['--one-port'], {})).toMatchObject({ host: '127.0.0.1', onePort: true });
    expect(() => parseCli([], { PORT: 'http' })).toThrow("PORT (environment): 'http' is not a port number");
    expect(() => parseCli([], { PORT: '8080.5' })).toThrow(/^PORT \(environment\)/);
  });

  it('warns on Clever Cloud without a database or an admin token, and on one port without a name', () => {
    const cc = { APP_ID: 'app_1', INSTANCE_ID: 'x', PORT: '8080' };
    const options = parseCli([], cc);
    if ('help' in options) throw new Error('no help');
    const warnings = startupWarnings(options, cc, false);
    expect(warnings[0]).toMatch(/^on Clever Cloud without --database: the data folder is lost/);
    expect(warnings[1]).toMatch(/without REAPER_ADMIN_TOKEN/);
    expect(warnings[3]).toMatch(/^one port and no --allowed-host: every Host name goes to the wake proxy/);
    const named = parseCli(['--allowed-host', 'reaper.example.com'], { ...cc, REAPER_ADMIN_TOKEN: 't' });
    if ('help' in named) throw new Error('no help');
    expect(startupWarnings(named, { ...cc, REAPER_ADMIN_TOKEN: 't' }, true)).toEqual([
      'listening on 0.0.0.0: the admin API is reachable from the network',
    ]);
    expect(startupWarnings(parseCli([], {}) as never, {}, false)).toEqual([]);
  });
});

describe('GET /healthz and GET /readyz', () => {
  it('answer without a token and without detail, whatever the Host', async () => {
    await serve();
    for (const host of ['127.0.0.1', 'reaper.example.com', '10.0.0.7']) {
      const health = await get('/healthz', host);
      expect(health).toMatchObject({ status: 200, body: 'ok' });
      expect(health.headers['cache-control']).toBe('no-store');
      expect(await get('/readyz', host)).toMatchObject({ status: 200, body: 'ready' });
    }
    expect(await get('/healthz', '127.0.0.1', 'HEAD')).toMatchObject({ status: 200, body: '' });
    expect((await get('/readyz', '127.0.0.1', 'POST')).status).toBe(405);
    // The API next to them still wants its token.
    expect((await get('/api/status', '127.0.0.1')).status).toBe(401);
  });

  it('/readyz answers 503 and one word while the engine is stopped, and healthz stays 200', async () => {
    const s = await serve();
    await s.service.current!.engine.stop();
    expect(await get('/readyz', '127.0.0.1')).toMatchObject({ status: 503, body: 'engine' });
    expect(await get('/healthz', '127.0.0.1')).toMatchObject({ status: 200, body: 'ok' });
  });

  it('/readyz says disconnected while no account is connected', async () => {
    const home = mkdtempSync(join(tmpdir(), 'reaper-platform-home-'));
    try {
      await serve({ demo: false, env: { REAPER_ADMIN_TOKEN: ADMIN, HOME: home, XDG_CONFIG_HOME: home } });
      expect(server!.service.mode).toBe('disconnected');
      expect(await get('/readyz', '127.0.0.1')).toMatchObject({ status: 503, body: 'disconnected' });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('takes more checks (the extension point of team mode leases)', async () => {
    let leases: string | null = 'leases';
    await serve({ readinessChecks: [{ name: 'leases', run: async () => leases }] });
    expect(await get('/readyz', '127.0.0.1')).toMatchObject({ status: 503, body: 'leases' });
    leases = null;
    expect(await get('/readyz', '127.0.0.1')).toMatchObject({ status: 200, body: 'ready' });
  });
});

describe('readiness checks', () => {
  it('answer the first reason; a check that throws, hangs or says more than a word answers its name', async () => {
    expect(await readiness([])).toBeNull();
    expect(
      await readiness([
        { name: 'a', run: async () => null },
        { name: 'b', run: async () => 'busy' },
        { name: 'c', run: async () => 'late' },
      ]),
    ).toBe('busy');
    expect(
      await readiness([
        {
          name: 'datastore',
          run: () => {
            throw new Error('SQLITE_CANTOPEN');
          },
        },
      ]),
    ).toBe('datastore');
    expect(await readiness([{ name: 'slow', run: () => new Promise(() => undefined) }], 50)).toBe('slow');
    expect(await readiness([{ name: 'db', run: async () => 'the database is down: ECONNREFUSED' }])).toBe(
      'db',
    );
  });
});

/** A WebSocket handshake on a raw connection to the server, and all it answered until it closed. */
function upgrade(host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server!.url).port), '127.0.0.1', () =>
      socket.write(
        `GET /live HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      ),
    );
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('one port for the dashboard, the admin API and the wake proxy', () => {
  it("routes the server's own names to the API and every other Host to the wake proxy", async () => {
    await serve({ onePort: true, allowedHosts: ['reaper.example.com'] });
    const auth = { authorization: `Bearer ${ADMIN}` };
    // Before a route names the host: the wake proxy's 404, not the admin API's refusal.
    const before = await get('/', 'staging.example.com');
    expect(before.status).toBe(404);
    expect(before.body).toMatch(/^Clever Reaper: no app is routed for this host/);
    // An upgrade (a WebSocket) too goes to the wake proxy for another Host; the server's own take none.
    expect(await upgrade('staging.example.com')).toMatch(/^HTTP\/1\.1 404 [\s\S]*no app is routed/);
    expect(await upgrade('reaper.example.com')).toMatch(/^HTTP\/1\.1 400/);
    expect(before.headers['content-security-policy']).toBeUndefined();

    const routes = JSON.parse((await get('/api/routes', 'reaper.example.com', 'GET', auth)).body) as Route[];
    const route = routes[0]!;
    const patched = await new Promise<number>((resolve, reject) => {
      const { port } = new URL(server!.url);
      const body = JSON.stringify({ hosts: ['staging.example.com'] });
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: `/api/routes/${route.id}`,
          method: 'PATCH',
          headers: { host: 'reaper.example.com', 'content-type': 'application/json', ...auth },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(patched).toBe(200);
    await until('the wake proxy listening', 15_000, async () => !!server!.service.current!.traffic.wakeProxy);
    // The routed host reaches its app through the wake proxy (proxied when Up, the waking page when
    // asleep): never the dashboard, never the admin API, whose paths are the app's own there.
    const routed = await get('/api/status', 'staging.example.com', 'GET', { accept: 'text/html' });
    expect(routed.status).not.toBe(401);
    expect(routed.body).not.toContain('a valid admin token is needed');
    expect(server!.service.current!.traffic.stats.get(route.appId).counted).toBeGreaterThan(0);
    // The server's own names (allowed, loopback) still get the API.
    expect((await get('/api/status', 'reaper.example.com', 'GET', auth)).status).toBe(200);
    expect((await get('/api/status', '127.0.0.1', 'GET', auth)).status).toBe(200);
    expect((await get('/healthz', 'reaper.example.com')).body).toBe('ok');
  });

  it('without --one-port, another Host is refused as before', async () => {
    await serve({ allowedHosts: ['reaper.example.com'] });
    const other = await get('/', 'staging.example.com');
    expect(other.status).toBe(403);
    expect(other.body).toMatch(/only answers to its own address/);
  });
});
