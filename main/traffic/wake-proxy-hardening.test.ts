/**
 * The wake proxy against a hostile client and a bad day: request smuggling over raw sockets against
 * an upstream that logs every byte it receives, a datastore that refuses writes, connection floods and
 * live-status clients that do not read. The real engine, the simulator over HTTP and real SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../shared/durations.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';
import { ask, openFrom } from '../testing/raw-sockets.ts';
import { AccessLogFollower } from './access-logs.ts';
import { type ProxyLimits, proxyLimits } from './limits.ts';
import { TrafficStats } from './stats.ts';
import { StatusStreams } from './status-streams.ts';
import { cleverUpstream } from './upstream.ts';
import { type Upstream, WakeProxy } from './wake-proxy.ts';

let h: LiveHarness | null = null;
let proxy: WakeProxy | null = null;
let upstream: Server | null = null;
let follower: AccessLogFollower | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await follower?.stop();
  follower = null;
  await proxy?.close();
  proxy = null;
  if (upstream) {
    upstream.closeAllConnections();
    await new Promise((r) => upstream!.close(r));
  }
  upstream = null;
  await h?.close();
  h = null;
});

/** An upstream that logs the raw bytes it receives and every request its HTTP parser reads. */
async function loggingUpstream() {
  const seen: { method: string; url: string; host: string; body: string }[] = [];
  let bytes = '';
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('latin1')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', body });
      res.end('ok');
    });
  });
  server.on('connection', (s) => s.on('data', (c: Buffer) => (bytes += c.toString('latin1'))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  upstream = server;
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, bytes: () => bytes };
}

async function proxyOn(
  to: (appId: string, ownerId: string) => Promise<Upstream>,
  options: { limits?: Partial<ProxyLimits>; statusEveryMs?: number; log?: string[] } = {},
) {
  proxy = new WakeProxy({
    engine: h!.engine,
    routes: () => h!.config.routes(),
    holdDeadlineMs: () => 2 * MINUTE,
    clock: h!.clock,
    stats: new TrafficStats(),
    upstream: to,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.statusEveryMs ? { statusEveryMs: options.statusEveryMs } : {}),
    ...(options.log ? { log: (level, message) => options.log!.push(`[${level}] ${message}`) } : {}),
  });
  return (await proxy.listen(0)).port;
}

/** Send raw bytes on a new connection; everything answered until the server closes or goes quiet. */
function raw(port: number, text: string, quietMs = 300): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let answer = '';
    let timer = setTimeout(() => socket.destroy(), quietMs * 5);
    socket.on('data', (c: Buffer) => {
      answer += c.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(() => socket.destroy(), quietMs);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => undefined);
    socket.write(text);
  });
}

function chunked(text: string): string {
  return `${Buffer.byteLength(text, 'latin1').toString(16)}\r\n${text}\r\n0\r\n\r\n`;
}

describe('request smuggling through the wake proxy', () => {
  it('a body on a GET, HEAD, DELETE or OPTIONS is sent framed: the upstream never reads a second request', async () => {
    h = await liveHarness();
    const app = h.manage('shop', {}, { hosts: ['shop.test'] });
    await h.engine.start();
    await h.eventually(() => h!.state(app.id) === 'Up', 'Up');
    const logged = await loggingUpstream();
    const port = await proxyOn(async () => ({ origin: logged.url, host: 'shop.upstream.test' }));
    const smuggled = 'DELETE /other-app HTTP/1.1\r\nHost: victim.upstream.test\r\nContent-Length: 0\r\n\r\n';
    const methods = ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'POST'];
    for (const method of methods) {
      const answer = await raw(
        port,
        `${method} /${method.toLowerCase()} HTTP/1.1\r\nHost: shop.test\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(smuggled)}`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
    }
    // A Content-Length body on a GET goes on with its Content-Length.
    const sized = await raw(
      port,
      `GET /sized HTTP/1.1\r\nHost: shop.test\r\nContent-Length: ${smuggled.length}\r\n\r\n${smuggled}`,
    );
    expect(sized).toMatch(/^HTTP\/1\.1 200/);
    // Both framings at once: refused before anything reaches the upstream.
    const both = await raw(
      port,
      `GET /both HTTP/1.1\r\nHost: shop.test\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(smuggled)}`,
    );
    expect(both).toMatch(/^HTTP\/1\.1 400/);
    // Then ordinary requests, on the pooled connections the smuggled bytes would have poisoned.
    for (let i = 0; i < 5; i++)
      expect(await raw(port, 'GET /after HTTP/1.1\r\nHost: shop.test\r\n\r\n')).toMatch(/^HTTP\/1\.1 200/);

    expect(logged.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      ...methods.map((m) => `${m} /${m.toLowerCase()}`),
      'GET /sized',
      ...Array(5).fill('GET /after'),
    ]);
    expect(logged.seen.every((r) => r.host === 'shop.upstream.test')).toBe(true);
    // Each body arrived as a body, framed (chunked, or its Content-Length), never as a request.
    for (const r of logged.seen.slice(0, methods.length + 1)) expect(r.body).toBe(smuggled);
    // On the wire: the smuggled text once per request, each chunked copy behind its chunk size.
    const wire = logged.bytes();
    expect(wire.split(smuggled)).toHaveLength(methods.length + 2);
    const size = smuggled.length.toString(16);
    expect(wire.split(`\r\n\r\n${size}\r\n${smuggled}\r\n0\r\n\r\n`)).toHaveLength(methods.length + 1);
    expect(wire.match(/transfer-encoding: chunked/gi)).toHaveLength(methods.length);
  });
});

describe('two Host headers', () => {
  it('are refused with 400 before anything is routed or forwarded, in any order or case', async () => {
    h = await liveHarness();
    const app = h.manage('shop', {}, { hosts: ['shop.test'] });
    await h.engine.start();
    await h.eventually(() => h!.state(app.id) === 'Up', 'Up');
    const logged = await loggingUpstream();
    const port = await proxyOn(async () => ({ origin: logged.url, host: 'shop.upstream.test' }));
    const pairs = [
      ['Host: shop.test', 'Host: victim.test'],
      ['Host: victim.test', 'Host: shop.test'],
      ['Host: shop.test', 'HOST: shop.test'],
      ['host: shop.test', 'Host: shop.test', 'Host: other.test'],
    ];
    for (const hosts of pairs) {
      const answer = await raw(port, `GET /two HTTP/1.1\r\n${hosts.join('\r\n')}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      expect(answer).toContain(`${hosts.length} Host headers`);
    }
    expect(await raw(port, 'GET /one HTTP/1.1\r\nHost: shop.test\r\n\r\n')).toMatch(/^HTTP\/1\.1 200/);
    expect(logged.seen.map((r) => r.url)).toEqual(['/one']);
  });
});

/** GET through the proxy; the status and the body. */
function get(port: number, host: string, path = '/', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a datastore that refuses writes', () => {
  it('every request is answered (passed through), said once, the process lives on, and it resumes', async () => {
    const rejections: unknown[] = [];
    const collect = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', collect);
    try {
      h = await liveHarness();
      const up = h.manage('shop', {}, { hosts: ['shop.test'], gracePeriodMs: 60 * MINUTE });
      const down = h.manage('preview', { state: 'SHOULD_BE_DOWN' }, { hosts: ['preview.test'] });
      await h.engine.start();
      await h.eventually(() => h!.state(up.id) === 'Up' && h!.state(down.id) === 'Down', 'Up and Down');
      const log: string[] = [];
      const port = await proxyOn(cleverUpstream(h.client, { origin: h.sim.url }), { log });
      await get(port, 'shop.test'); // the upstream known before the fault
      const logs = new AccessLogFollower({
        engine: h.engine,
        clock: h.clock,
        stats: new TrafficStats(),
        source: (owner, app, options) => h!.client.accessLogs(owner, app, options),
        backoffMs: { first: 20, max: 200 },
        log: (level, message) => log.push(`[${level}] ${message}`),
      });
      follower = logs;
      logs.start();
      await h.eventually(() => logs.status(down.id)?.connected === true, 'the access log followed');

      // Writes fail from here on, on the real connection (as on a full disk or a read-only folder).
      h.store.db.exec('PRAGMA query_only = 1');
      const N = 300;
      const answers: { status: number; body: string }[] = [];
      for (let round = 0; round < N / 3; round++) {
        h.cloud.recordRequest(down.id, { path: `/logged/${round}` });
        answers.push(
          ...(await Promise.all([
            get(port, 'shop.test', `/r${round}`),
            get(port, 'preview.test', `/api/${round}`),
            get(port, 'preview.test', '/', { accept: 'text/html' }),
          ])),
        );
        await new Promise((r) => setTimeout(r, 5)); // half a second of engine time: writes are due
      }
      await h.eventually(
        () => /^the datastore refused a write/.test(h!.engine.storage ?? ''),
        'the refused write reported',
      );
      expect(answers).toHaveLength(N);
      // The Up app answered; the asleep one passed through to its own answer (no waking page, no 502).
      expect(answers.filter((a) => a.status === 200)).toHaveLength(N / 3);
      expect(answers.filter((a) => a.status === 503 && a.body === 'preview is not running')).toHaveLength(
        (2 * N) / 3,
      );
      expect(rejections).toEqual([]);
      expect(h.engine.storage).toMatch(
        /^the datastore refused a write: attempt to write a readonly database/,
      );
      expect(
        log.filter((l) => l.startsWith('[warn] wake proxy: a request could not be recorded')),
      ).toHaveLength(1);
      expect(
        log.filter((l) => l.startsWith('[warn] access logs: a request could not be recorded')),
      ).toHaveLength(1);
      expect(logs.refused.refused).toBeGreaterThan(10);
      expect(h.state(down.id)).toBe('Down');

      // Writes work again: the next request is recorded, wakes the asleep app, and the problem clears.
      h.store.db.exec('PRAGMA query_only = 0');
      const page = await get(port, 'preview.test', '/', { accept: 'text/html' });
      expect(page.body).toContain('Waking up preview');
      await h.eventually(() => h!.state(down.id) === 'Up', 'the asleep app woken');
      expect(h.engine.storage).toBeNull();
      expect(log.filter((l) => l.startsWith('[info] wake proxy: requests are recorded again'))).toHaveLength(
        1,
      );
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', collect);
    }
  });
});

const open = (port: number, from?: string) => openFrom(sockets, port, from);

describe('live-status streams', () => {
  async function asleep(limits: Partial<ProxyLimits>, statusEveryMs?: number) {
    h = await liveHarness();
    const app = h.manage('preview', { state: 'SHOULD_BE_DOWN' }, { hosts: ['preview.test'] });
    await h.engine.start();
    await h.eventually(() => h!.state(app.id) === 'Down', 'Down');
    return proxyOn(cleverUpstream(h.client, { origin: h.sim.url }), {
      limits,
      ...(statusEveryMs ? { statusEveryMs } : {}),
    });
  }
  const STATUS = 'GET /__clever-reaper/status HTTP/1.1\r\nHost: preview.test\r\n\r\n';

  it('are capped in total and per client address (503 past the cap, with Retry-After)', async () => {
    const port = await asleep({ maxStatusStreams: 12, maxStatusStreamsPerAddress: 4 });
    const firstLines = async (from: string, n: number) => {
      const lines: string[] = [];
      for (let i = 0; i < n; i++) lines.push(await ask((await open(port, from)).socket, STATUS));
      return lines;
    };
    expect(await firstLines('127.0.0.1', 6)).toEqual([
      ...Array(4).fill('HTTP/1.1 200 OK'),
      ...Array(2).fill('HTTP/1.1 503 Service Unavailable'),
    ]);
    expect(await firstLines('127.0.0.2', 4)).toEqual(Array(4).fill('HTTP/1.1 200 OK'));
    expect(await firstLines('127.0.0.3', 4)).toEqual(Array(4).fill('HTTP/1.1 200 OK'));
    expect(await firstLines('127.0.0.4', 2)).toEqual(Array(2).fill('HTTP/1.1 503 Service Unavailable'));
    expect(proxy!.statusStreams.open).toBe(12);
    // A stream closed frees its place.
    sockets[0]!.destroy();
    await h!.eventually(() => proxy!.statusStreams.open === 11, 'the closed stream let go');
    expect(await firstLines('127.0.0.4', 1)).toEqual(['HTTP/1.1 200 OK']);
  });

  it('a client that does not read is dropped; one that reads is kept', async () => {
    // Over a Unix socket, whose kernel buffers (about 200 KB) fill in seconds; over TCP on loopback
    // the kernel takes about 4 MB first, an hour of a real stream's events, before the proxy sees it.
    await asleep({});
    const appId = h!.engine.list()[0]!.appId;
    const streams = new StatusStreams({
      engine: h!.engine,
      clock: h!.clock,
      limits: { ...proxyLimits(), statusUnreadBytes: 32 * 1024, statusStallMs: 1000 },
      everyMs: 1,
    });
    const dir = mkdtempSync(join(tmpdir(), 'reaper-status-'));
    const path = join(dir, 'proxy.sock');
    upstream = createServer((req, res) => streams.serve(appId, req, res));
    await new Promise<void>((r) => upstream!.listen(path, r));
    try {
      const connectTo = () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(path, () => resolve(socket));
          sockets.push(socket);
          socket.on('error', () => undefined);
        });
      const reader = await connectTo();
      let read = 0;
      reader.on('data', (c: Buffer) => (read += c.length));
      reader.write(STATUS);
      const stalled = await connectTo();
      stalled.pause(); // never reads: the kernel's buffers fill, then the stream's
      stalled.write(STATUS);
      const started = Date.now();
      // (A paused client does not see its connection closed until it reads again.)
      await h!.eventually(
        () => streams.dropped > 0 && streams.open === 1,
        'the client that does not read dropped',
        20_000,
      );
      const tookMs = Date.now() - started;
      expect(streams.dropped).toBe(1);
      expect(streams.open).toBe(1);
      expect(reader.destroyed).toBe(false);
      expect(read).toBeGreaterThan(32 * 1024);
      console.log(`non-reading status client dropped after ${tookMs} ms; the reader read ${read} bytes`);
    } finally {
      streams.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
