/**
 * Security of what listens: the admin API (token, loopback, Host and Origin, no CORS, body size), the
 * wake proxy (request smuggling refused), and secrets (a planted Clever Cloud token and secret appear
 * in no log, error, history entry, export, pushed event or answer the dashboard receives).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEVER_TOOLS_CONSUMER } from '../clever/credentials.ts';
import { systemClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import type { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { until } from '../testing/serve-process.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

// Unique strings that must never leave the credentials: planted, then searched for everywhere.
const TOKEN = 'planted-token-5bd1f0e2c7a94d3b';
const SECRET = 'planted-secret-8e61a2f3b9c04d7e';
const ADMIN = 'admin-token-for-the-security-tests';

let sim: SimulatorServer;
let cloud: SimulatedCloud;
let server: Headless;
let dataDir: string;
const logs: string[] = [];
let appId = '';
let orgId = '';

beforeAll(async () => {
  cloud = new SimulatedCloud(systemClock, { listingDelayMs: 0, deployDurationMs: 300, stopDurationMs: 100 });
  sim = await startSimulatorServer({
    cloud,
    credentials: {
      oauth: {
        consumerKey: CLEVER_TOOLS_CONSUMER.key,
        consumerSecret: CLEVER_TOOLS_CONSUMER.secret,
        token: TOKEN,
        secret: SECRET,
      },
    },
  });
  orgId = cloud.addOrganisation('Acme').id;
  appId = cloud.addApp(orgId, 'staging', { state: 'SHOULD_BE_DOWN' }).id;
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-security-'));
  server = await startHeadless({
    ...TEST_SERVER,
    dataDir,
    apiUrl: sim.url,
    env: { CLEVER_TOKEN: TOKEN, CLEVER_SECRET: SECRET, REAPER_ADMIN_TOKEN: ADMIN },
    log: (level, message) => logs.push(`[${level}] ${message}`),
  });
});
afterAll(async () => {
  await server.close();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function call(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${ADMIN}`, ...init.headers },
  });
}

/** A raw HTTP request (fetch would fix the headers a test needs broken). */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (c) => (answer += c.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, 1500);
  });
}

describe('the admin API', () => {
  it('refuses every call without the token, or with a wrong one', async () => {
    expect((await fetch(`${server.url}/api/apps`)).status).toBe(401);
    expect((await call('/api/apps', { headers: { authorization: 'Bearer not-the-token' } })).status).toBe(
      401,
    );
    expect((await call('/api/apps', { headers: { authorization: `Basic ${ADMIN}` } })).status).toBe(401);
    expect((await call('/api/apps')).status).toBe(200);
  });

  it('listens on loopback unless told otherwise', () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
  });

  it('refuses a Host that is not its own, even with the token (DNS rebinding)', async () => {
    const port = new URL(server.url).port;
    const answer = await raw(
      Number(port),
      `GET /api/apps HTTP/1.1\r\nHost: attacker.example:${port}\r\nAuthorization: Bearer ${ADMIN}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403/);
    expect(answer).toContain('this server only answers to its own address');
    for (const host of ['localhost', '127.0.0.1']) {
      const ok = await raw(
        Number(port),
        `GET /api/status HTTP/1.1\r\nHost: ${host}:${port}\r\nAuthorization: Bearer ${ADMIN}\r\nConnection: close\r\n\r\n`,
      );
      expect(ok).toMatch(/^HTTP\/1\.1 200/);
    }
  });

  it('refuses cross-site requests and never answers with CORS headers', async () => {
    const foreign = await call('/api/settings', {
      method: 'PATCH',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ killSwitch: true }),
    });
    expect(foreign.status).toBe(403);
    expect(((await (await call('/api/settings')).json()) as { killSwitch: boolean }).killSwitch).toBe(false);
    const preflight = await call('/api/settings', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PATCH' },
    });
    expect(preflight.status).toBe(403);
    const same = await call('/api/status', { headers: { origin: server.url } });
    expect(same.status).toBe(200);
    for (const answer of [foreign, preflight, same]) {
      expect([...answer.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('refuses a body over 1 MB without reading it all', async () => {
    const answer = await call('/api/settings', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(
      'the body is larger than 1 MB',
    );
  });
});

describe('the wake proxy', () => {
  it('refuses requests that could smuggle another one (Content-Length with Transfer-Encoding, bad headers)', async () => {
    await call('/api/routes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appId, ownerId: orgId, hosts: ['staging.test'] }),
    });
    const proxy = await until(
      'the wake proxy listening',
      15_000,
      async () =>
        ((await (await call('/api/status')).json()) as { wakeProxy: { url: string | null } }).wakeProxy.url,
      50,
    );
    expect(proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(proxy).port);
    const smuggle = await raw(
      port,
      'POST / HTTP/1.1\r\nHost: staging.test\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /admin HTTP/1.1\r\nHost: staging.test\r\n\r\n',
    );
    expect(smuggle).toMatch(/^HTTP\/1\.1 400/);
    const badHeader = await raw(port, 'GET / HTTP/1.1\r\nHost: staging.test\r\nX-Bad: a\u0000b\r\n\r\n');
    expect(badHeader).toMatch(/^HTTP\/1\.1 400/);
    const noHost = await raw(port, 'GET / HTTP/1.1\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1\.1 400/);
  });
});

describe('secrets', () => {
  it('the planted token and secret appear nowhere the operator or the dashboard can see', async () => {
    // Exercise what produces text: reads, a wake, Clever Cloud errors that quote the credentials.
    const events: string[] = [];
    const controller = new AbortController();
    const stream = (async () => {
      const answer = await call('/api/events', { signal: controller.signal });
      const reader = answer.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        events.push(new TextDecoder().decode(value));
      }
    })().catch(() => {});
    sim.faults.push({
      kind: 'status',
      status: 400,
      count: 3,
      message: `token ${TOKEN} secret ${SECRET} refused`,
    });
    const seen: string[] = [];
    for (const path of [
      '/api/status',
      '/api/apps',
      '/api/owners',
      `/api/apps/${appId}`,
      '/api/routes',
      '/api/settings',
    ]) {
      seen.push(await (await call(path)).text());
    }
    seen.push(await (await call(`/api/apps/${appId}/_wake?wait=true`, { method: 'POST' })).text());
    seen.push(await (await call(`/api/apps/${appId}/history`)).text());
    seen.push(await (await call('/api/credentials')).text());
    seen.push(
      await (
        await call('/api/connect', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ source: 'pasted', token: `${TOKEN}-wrong`, secret: SECRET }),
        })
      ).text(),
    );
    // The event stream has carried the wake's history before it is closed and searched.
    await until('the wake on the event stream', 15_000, async () => events.join('').includes(appId));
    controller.abort();
    await stream;
    const history = (server.service.current!.store as SqliteStore).db.prepare('SELECT * FROM history').all();
    const everything = [
      ...seen,
      ...events,
      ...logs,
      JSON.stringify(history),
      readFileSync(join(dataDir, 'config.json'), 'utf8'),
    ].join('\n');
    expect(seen.some((s) => s.includes(appId))).toBe(true); // the texts searched are real answers
    expect(everything).toContain('[redacted]'); // an error quoting the credentials was met, and cleaned
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain(SECRET);
  });
});
