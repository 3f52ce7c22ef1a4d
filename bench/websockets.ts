/**
 * WebSockets through the wake proxy, side by side in one run with a bare Node.js WebSocket proxy
 * (bench/fixtures/bare-ws-proxy.ts: the upgrade piped, no routing, no engine) and direct to the
 * upstream (a `ws` echo server, bench/fixtures/ws-upstream.ts):
 *
 * - added latency: one connection, one 32-byte message at a time, its echo awaited (p50, p99);
 * - messages a second: 4 connections, each with 64 messages in flight;
 * - idle WebSockets held: resident memory of the proxy process with that many open and silent, less
 *   its memory before, per connection (garbage collected in both proxies before each reading).
 *
 * Both proxies on core 0 (taskset, when available); the upstream and this load generator share core
 * 1. The wake proxy is main/testing/wake-proxy-process.ts: a real engine with one Up app.
 *
 *   npx node bench/websockets.ts [--seconds 5] [--idle 10000]
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { PROXIED_HOST, wakeProxyProcess } from '../main/testing/wake-proxy-process.ts';
import { round, stats } from './stats.ts';
import { pinned, start } from './wake-proxy.ts';

interface Target {
  name: string;
  port: number;
  host: string;
  pid?: number;
}

const PAYLOAD = Buffer.alloc(32, 0x61);

function connectTo(t: Target): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.port}/bench`, {
      headers: { host: t.host },
      perMessageDeflate: false,
    });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function latency(t: Target, seconds: number): Promise<number[]> {
  const ws = await connectTo(t);
  const times: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const at = process.hrtime.bigint();
    await new Promise<void>((resolve) => {
      ws.once('message', () => resolve());
      ws.send(PAYLOAD);
    });
    times.push(Number(process.hrtime.bigint() - at) / 1e6);
  }
  ws.close();
  return times;
}

async function rate(t: Target, seconds: number, connections = 4, window = 64): Promise<number> {
  const sockets = await Promise.all(Array.from({ length: connections }, () => connectTo(t)));
  let echoed = 0;
  let counting = false;
  let running = true;
  for (const ws of sockets) {
    ws.on('message', () => {
      if (counting) echoed++;
      if (running) ws.send(PAYLOAD);
    });
    for (let i = 0; i < window; i++) ws.send(PAYLOAD);
  }
  await new Promise((r) => setTimeout(r, 500)); // warm
  counting = true;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  counting = false;
  const elapsed = (Date.now() - started) / 1000;
  running = false;
  for (const ws of sockets) ws.terminate();
  return echoed / elapsed;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/** Garbage collected in the target's process, then its resident memory. */
async function settledRss(pid: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 500));
  process.kill(pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 1500));
  return rssOf(pid);
}

/** Open `n` WebSockets through the target and leave them silent: its memory per connection. */
async function idle(t: Target, n: number): Promise<{ held: number; bytesPerConnection: number }> {
  const before = await settledRss(t.pid!);
  const sockets: WebSocket[] = [];
  for (let i = 0; i < n; i += 100) {
    const batch = await Promise.all(Array.from({ length: Math.min(100, n - i) }, () => connectTo(t)));
    sockets.push(...batch);
    if (i % 2000 === 0) process.stderr.write(`${t.name}: ${sockets.length} idle WebSockets open\n`);
  }
  const after = await settledRss(t.pid!);
  // Every one still open and answering.
  const alive = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  for (const ws of sockets) ws.terminate();
  await new Promise((r) => setTimeout(r, 1500));
  return { held: alive, bytesPerConnection: Math.round((after - before) / n) };
}

function openFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? 1024);
}

export async function webSocketBench(options: { seconds?: number; idle?: number } = {}) {
  const seconds = options.seconds ?? 5;
  // A proxied WebSocket takes two open files in the proxy (the client's socket and the app's).
  const idleWanted = options.idle ?? 10_000;
  const idleCount = Math.min(idleWanted, Math.floor((openFileLimit() - 200) / 2));
  const gc = { flags: ['--expose-gc'] };
  const upstream = await start('./fixtures/ws-upstream.ts', 1);
  const reaper = await wakeProxyProcess(
    { origin: `http://127.0.0.1:${upstream.port}`, host: 'bench.test' },
    { maxConnections: 2 * idleWanted, command: (node) => pinned(0, node) },
  );
  const bare = await start('./fixtures/bare-ws-proxy.ts', 0, [String(upstream.port)], gc);
  const direct: Target = { name: 'direct', port: upstream.port, host: 'bench.test' };
  const proxied: Target = {
    name: 'wake proxy',
    port: reaper.port,
    host: PROXIED_HOST,
    pid: reaper.child.pid!,
  };
  const bareProxy: Target = { name: 'bare proxy', port: bare.port, host: 'bench.test', pid: bare.child.pid! };
  try {
    for (const t of [direct, proxied, bareProxy]) await latency(t, 1); // warm up
    const lat = new Map<string, ReturnType<typeof stats>>();
    const rates = new Map<string, number>();
    for (const t of [direct, proxied, bareProxy]) lat.set(t.name, stats(await latency(t, seconds)));
    for (const t of [direct, proxied, bareProxy]) rates.set(t.name, Math.round(await rate(t, seconds)));
    const idleReaper = await idle(proxied, idleCount);
    const idleBare = await idle(bareProxy, idleCount);
    const d = lat.get('direct')!;
    const p = lat.get('wake proxy')!;
    const b = lat.get('bare proxy')!;
    return {
      name: 'websockets',
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      directP50ms: d.median,
      directP99ms: d.p99,
      proxiedP50ms: p.median,
      proxiedP99ms: p.p99,
      bareP50ms: b.median,
      bareP99ms: b.p99,
      addedP50ms: round(p.median - d.median),
      addedP99ms: round(p.p99 - d.p99),
      bareAddedP50ms: round(b.median - d.median),
      bareAddedP99ms: round(b.p99 - d.p99),
      directMessagesPerSecond: rates.get('direct'),
      proxiedMessagesPerSecond: rates.get('wake proxy'),
      bareMessagesPerSecond: rates.get('bare proxy'),
      idleWanted,
      idleHeld: idleReaper.held,
      idleBytesPerConnection: idleReaper.bytesPerConnection,
      bareIdleHeld: idleBare.held,
      bareIdleBytesPerConnection: idleBare.bytesPerConnection,
    };
  } finally {
    await reaper.close();
    upstream.child.kill();
    bare.child.kill();
  }
}

if (import.meta.main) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const seconds = arg('--seconds');
  const idleCount = arg('--idle');
  console.log(
    JSON.stringify(
      await webSocketBench({
        ...(seconds ? { seconds } : {}),
        ...(idleCount ? { idle: idleCount } : {}),
      }),
    ),
  );
}
