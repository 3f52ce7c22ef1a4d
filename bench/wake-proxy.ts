/**
 * Wake proxy overhead: latency added per proxied request (p50, p99, one connection at a time) and
 * requests per second (32 connections), against direct requests to the same local upstream. The
 * proxy runs alone on one core (taskset, when available); the upstream and the load generator share
 * the other. A bare Node.js proxy (bench/fixtures/bare-proxy.ts: no routing, no engine) on the same
 * core gives the ceiling of the platform.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { round, stats } from './stats.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const taskset = existsSync('/usr/bin/taskset');

/** A command run on one core (taskset), when taskset is there. */
export function pinned(core: number, command: string[]): string[] {
  return taskset ? ['taskset', '-c', String(core), ...command] : command;
}

/** A fixture in a process of its own, on one core when taskset is there; resolves once it is ready. */
export function start(
  script: string,
  core: number,
  args: string[] = [],
  options: { flags?: string[]; env?: Record<string, string> } = {},
): Promise<{ child: ChildProcess; port: number }> {
  const node = [
    process.execPath,
    '--disable-warning=ExperimentalWarning',
    ...(options.flags ?? []),
    here(script),
    ...args,
  ];
  const [cmd, ...rest] = pinned(core, node);
  const child = spawn(cmd!, rest, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...options.env },
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const m = /ready (\d+)/.exec(chunk.toString());
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function load(port: number, connections: number, seconds: number) {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}/items/42`,
        headers: { host: 'bench.test' },
        connections,
        duration: seconds,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    // Per-request times in fractional ms (the summary histogram rounds to whole ms).
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  return { rps: result.requests.average, errors: result.errors + result.non2xx, latencies };
}

export async function wakeProxyBench(seconds = 8) {
  const upstream = await start('./fixtures/upstream.ts', 1);
  const proxy = await start('./fixtures/proxy.ts', 0, [String(upstream.port)]);
  const bare = await start('./fixtures/bare-proxy.ts', 0, [String(upstream.port)]);
  try {
    await load(upstream.port, 8, 1); // warm up both
    await load(proxy.port, 8, 1);
    const directLatency = stats((await load(upstream.port, 1, seconds)).latencies);
    const proxiedLatency = stats((await load(proxy.port, 1, seconds)).latencies);
    const bareLatency = stats((await load(bare.port, 1, seconds)).latencies);
    const direct = await load(upstream.port, 32, seconds);
    const proxied = await load(proxy.port, 32, seconds);
    const bareLoad = await load(bare.port, 32, seconds);
    return {
      name: 'wake proxy',
      pinnedToOneCore: taskset,
      directP50ms: directLatency.median,
      proxiedP50ms: proxiedLatency.median,
      addedP50ms: round(proxiedLatency.median - directLatency.median),
      directP99ms: directLatency.p99,
      proxiedP99ms: proxiedLatency.p99,
      addedP99ms: round(proxiedLatency.p99 - directLatency.p99),
      directRps: Math.round(direct.rps),
      proxiedRps: Math.round(proxied.rps),
      bareProxyP50ms: bareLatency.median,
      bareProxyRps: Math.round(bareLoad.rps),
      errors: direct.errors + proxied.errors + bareLoad.errors,
    };
  } finally {
    upstream.child.kill();
    proxy.child.kill();
    bare.child.kill();
  }
}

if (import.meta.main) console.log(JSON.stringify(await wakeProxyBench()));
