/**
 * Long-lived connections through the real wake proxy over loopback, to the simulator's apps (their
 * WebSocket echo and their event stream), with the engine and the real client on a clock 100 times
 * faster: WebSockets to an Up app and to an asleep one, open connections keeping an app awake, and
 * server-sent events relayed one by one.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import type { RouteCreate } from '../../shared/routes.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';
import { CONNECTION_BEAT_MS } from './connections.ts';
import { TrafficStats } from './stats.ts';
import { cleverUpstream } from './upstream.ts';
import { WakeProxy } from './wake-proxy.ts';

let h: LiveHarness | null = null;
let proxy: WakeProxy | null = null;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await proxy?.close();
  proxy = null;
  await h?.close();
  h = null;
});

async function withProxy(failTimeoutMs = 15 * MINUTE) {
  const stats = new TrafficStats();
  proxy = new WakeProxy({
    engine: h!.engine,
    routes: () => h!.config.routes(),
    holdDeadlineMs: () => 2 * MINUTE,
    failTimeoutMs: () => failTimeoutMs,
    clock: h!.clock,
    stats,
    upstream: cleverUpstream(h!.client, { origin: h!.sim.url }),
    expectedWakeMs: async () => 45 * SECOND,
  });
  return { stats, port: (await proxy.listen(0)).port };
}

async function app(name: string, state: 'SHOULD_BE_UP' | 'SHOULD_BE_DOWN', route: Partial<RouteCreate> = {}) {
  h ??= await liveHarness();
  const created = h.manage(name, { state }, { hosts: [`${name}.test`], ...route });
  await h.engine.start();
  const settled = state === 'SHOULD_BE_UP' ? 'Up' : 'Down';
  await h.eventually(() => h!.state(created.id) === settled, settled);
  return created;
}

/** A WebSocket to `host` through the proxy; resolves once open, rejects with the HTTP answer if refused. */
function open(port: number, host: string, path = '/live') {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: { host } });
  sockets.push(ws);
  return new Promise<WebSocket>((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`HTTP ${res.statusCode}`), {
            status: res.statusCode,
            headers: res.headers,
            body,
          }),
        ),
      );
    });
    ws.once('error', reject);
  });
}

function echo(ws: WebSocket, data: string | Buffer): Promise<{ data: Buffer; binary: boolean }> {
  return new Promise((resolve) => {
    ws.once('message', (answer: Buffer, binary: boolean) => resolve({ data: answer, binary }));
    ws.send(data);
  });
}

function closed(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) resolve();
    else ws.once('close', () => resolve());
  });
}

/** Raw bytes on a new connection, and everything answered until the server closes it. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const transitionsOf = (appId: string) =>
  h!
    .historyOf(appId)
    .filter((e) => e.kind === 'transition')
    .reverse();

describe('WebSockets through the wake proxy', () => {
  it('an Up app echoes text and binary messages, and the connection counts as traffic once', async () => {
    const echoing = await app('echo', 'SHOULD_BE_UP');
    const { port, stats } = await withProxy();
    const ws = await open(port, 'echo.test');
    expect(await echo(ws, 'hello')).toEqual({ data: Buffer.from('hello'), binary: false });
    const bytes = Buffer.from([0, 1, 2, 254, 255]);
    expect(await echo(ws, bytes)).toEqual({ data: bytes, binary: true });
    // Many messages in a row come back in order.
    const many = Array.from({ length: 200 }, (_, i) => `m${i}`);
    const seen: string[] = [];
    const all = new Promise<void>((resolve) =>
      ws.on('message', (m: Buffer) => {
        seen.push(m.toString());
        if (seen.length === many.length) resolve();
      }),
    );
    for (const m of many) ws.send(m);
    await all;
    expect(seen).toEqual(many);
    expect(proxy!.connectionsOf(echoing.id).open).toBe(1);
    expect(stats.get(echoing.id).counted).toBe(1);
    ws.close();
    await closed(ws);
    await h!.eventually(() => proxy!.connectionsOf(echoing.id).open === 0, 'the connection gone');
  });

  it('an upgrade for a Host no route names gets 404, one with a body 400, and reach nothing', async () => {
    const guarded = await app('guarded', 'SHOULD_BE_UP');
    const { port } = await withProxy();
    const upgrade = (host: string, extra = '') =>
      `GET /live HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n${extra}\r\n`;
    expect(await raw(port, upgrade('elsewhere.test'))).toMatch(/^HTTP\/1\.1 404 [\s\S]*no app is routed/);
    const smuggled = 'GET /admin HTTP/1.1\r\nHost: victim.test\r\n\r\n';
    expect(
      await raw(port, upgrade('guarded.test', `Content-Length: ${smuggled.length}\r\n`) + smuggled),
    ).toMatch(/^HTTP\/1\.1 400 [\s\S]*a body on an upgrade request/);
    expect(
      await raw(port, upgrade('guarded.test', 'Content-Length: 1\r\nTransfer-Encoding: chunked\r\n')),
    ).toMatch(/^HTTP\/1\.1 400/);
    expect(
      await raw(port, upgrade('guarded.test').replace('GET /live', 'GET http://169.254.169.254/')),
    ).toMatch(/^HTTP\/1\.1 400 [\s\S]*origin-form/);
    // The app's access log saw none of them.
    expect(h!.cloud.apps.get(guarded.id)!.accessLog).toEqual([]);
  });

  it('a WebSocket opened to an asleep app wakes it, is held, then echoes', async () => {
    const sleeper = await app('sleeper', 'SHOULD_BE_DOWN');
    const { port } = await withProxy();
    const opening = open(port, 'sleeper.test');
    await h!.eventually(() => h!.state(sleeper.id) === 'WaitingForUp', 'the start');
    expect(proxy!.connectionsOf(sleeper.id).open).toBe(0); // held, not yet passed on
    const ws = await opening;
    expect(h!.state(sleeper.id)).toBe('Up');
    expect(await echo(ws, 'awake?')).toMatchObject({ data: Buffer.from('awake?') });
    expect(h!.sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances')).toBe(1);
    expect(
      transitionsOf(sleeper.id)
        .map((e) => e.to)
        .slice(-3),
    ).toEqual(['Down', 'WaitingForUp', 'Up']);
  });

  it('a held WebSocket gets 504 with Retry-After at the fail timeout, and 503 when the app goes to Error', async () => {
    const slow = await app('slow', 'SHOULD_BE_DOWN');
    h!.cloud.apps.get(slow.id)!.deployDurationMs = 30 * MINUTE;
    const broken = await app('broken', 'SHOULD_BE_DOWN');
    h!.cloud.injectOutcomes(broken.id, 'fail');
    const { port } = await withProxy(MINUTE);
    const late = await open(port, 'slow.test').then(
      () => null,
      (e: { status: number; headers: Record<string, string>; body: string }) => e,
    );
    expect(late).toMatchObject({ status: 504, headers: { 'retry-after': '45' } });
    expect(JSON.parse(late!.body)).toMatchObject({
      error: 'slow did not come up within the fail timeout',
      state: 'Waking up',
      retryAfterSeconds: 45,
    });
    const failed = await open(port, 'broken.test').then(
      () => null,
      (e: { status: number; body: string }) => e,
    );
    expect(failed?.status).toBe(503);
    expect(JSON.parse(failed!.body)).toMatchObject({ state: 'Error' });
    expect(JSON.parse(failed!.body)).toMatchObject({ error: 'broken could not be started' });
    expect(JSON.parse(failed!.body).cause).toBeTruthy();
  });
});

describe('open connections keep an app awake', () => {
  it('an app with an open WebSocket is not put to sleep past its grace, and is once it closes', async () => {
    const busy = await app('busy', 'SHOULD_BE_UP', { gracePeriodMs: MINUTE });
    const { port } = await withProxy();
    const ws = await open(port, 'busy.test');
    const openedAt = h!.clock.now();
    // Three grace periods, the socket silent (below its idle limit): Up all along, its last request moving on.
    await h!.eventually(() => h!.clock.now() > openedAt + 3 * MINUTE, 'three grace periods', 30_000);
    expect(h!.state(busy.id)).toBe('Up');
    expect(h!.engine.get(busy.id)!.lastRequestAt).toBeGreaterThan(openedAt + 2 * MINUTE);
    expect(proxy!.connectionsOf(busy.id)).toEqual({ open: 1, inUse: 1 });
    ws.close();
    await closed(ws);
    const closedAt = h!.clock.now();
    await h!.eventually(() => h!.state(busy.id) === 'Down', 'asleep once the socket closed', 30_000);
    const sleep = transitionsOf(busy.id).find((e) => e.to === 'WaitingForShutdown')!;
    // Put to sleep one grace period after its last beat, which came at most a beat before the close.
    expect(sleep.at).toBeGreaterThanOrEqual(closedAt - CONNECTION_BEAT_MS + MINUTE);
  });

  it('a WebSocket silent past the idle limit stops counting; one that talks keeps counting', async () => {
    const limit = 3 * MINUTE;
    const quiet = await app('quiet', 'SHOULD_BE_UP', { gracePeriodMs: MINUTE, connectionIdleLimitMs: limit });
    const chatty = await app('chatty', 'SHOULD_BE_UP', {
      gracePeriodMs: MINUTE,
      connectionIdleLimitMs: limit,
    });
    const { port } = await withProxy();
    const silent = await open(port, 'quiet.test');
    const talking = await open(port, 'chatty.test');
    const openedAt = h!.clock.now();
    const talk = setInterval(() => talking.send('still here'), 100); // every 10 s of engine time
    try {
      await h!.eventually(() => h!.state(quiet.id) === 'Down', 'the silent one asleep', 30_000);
      const sleep = transitionsOf(quiet.id).find((e) => e.to === 'WaitingForShutdown')!;
      // Not before the idle limit and a grace period (less a beat), though its socket is still open.
      expect(sleep.at).toBeGreaterThanOrEqual(openedAt + limit + MINUTE - CONNECTION_BEAT_MS);
      expect(silent.readyState).toBe(WebSocket.OPEN);
      expect(h!.state(chatty.id)).toBe('Up');
      expect(h!.clock.now()).toBeGreaterThan(openedAt + limit + MINUTE);
    } finally {
      clearInterval(talk);
    }
  });

  it('a route that says open connections do not keep it awake: put to sleep after its grace', async () => {
    const free = await app('free', 'SHOULD_BE_UP', { gracePeriodMs: MINUTE, connectionsKeepAwake: false });
    const { port } = await withProxy();
    const ws = await open(port, 'free.test');
    const openedAt = h!.clock.now();
    await h!.eventually(() => h!.state(free.id) === 'Down', 'asleep', 30_000);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(proxy!.connectionsOf(free.id)).toEqual({ open: 1, inUse: 0 });
    expect(h!.engine.get(free.id)!.lastRequestAt).toBeLessThan(openedAt + CONNECTION_BEAT_MS);
  });
});

describe('streams through the wake proxy', () => {
  it('server-sent events are relayed one by one: each seen before the next is sent', async () => {
    const live = await app('live', 'SHOULD_BE_UP', { gracePeriodMs: MINUTE });
    const { port } = await withProxy();
    const events: string[] = [];
    let text = '';
    let wake: () => void = () => undefined;
    const stream = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/events?every=0',
          headers: { host: 'live.test', accept: 'text/event-stream' },
        },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    stream.on('data', (c: Buffer) => {
      text += c.toString();
      const frames = text.split('\n\n');
      text = frames.pop() ?? '';
      for (const f of frames) {
        const data = /^data: (.*)$/m.exec(f);
        if (f.includes('event: message') && data) events.push(data[1]!);
        wake();
      }
    });
    const seen = (n: number) =>
      new Promise<void>((resolve) => {
        wake = () => events.length >= n && resolve();
        wake();
      });
    for (let k = 1; k <= 5; k++) {
      // Posted straight to the app: only the stream goes through the proxy.
      const delivered = await new Promise<string>((resolve, reject) => {
        const post = request(
          {
            host: '127.0.0.1',
            port: new URL(h!.sim.url).port,
            method: 'POST',
            path: '/events',
            headers: { host: live.vhosts[0]! },
          },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve(body));
          },
        );
        post.on('error', reject);
        post.end(`event ${k}`);
      });
      expect(JSON.parse(delivered)).toEqual({ delivered: 1 });
      await seen(k); // the next event is sent only once this one came through
      expect(events).toEqual(Array.from({ length: k }, (_, i) => `event ${i + 1}`));
    }
    expect(proxy!.connectionsOf(live.id).open).toBe(1);
    stream.destroy();
    await h!.eventually(() => proxy!.connectionsOf(live.id).open === 0, 'the stream closed');
  });
});
