/**
 * The wake proxy alone in a process of its own (for tests that measure its memory, and the
 * benchmarks): a real engine on an in-process simulator with one Up app, routed from the host
 * `proxied.test` to the upstream given. Prints `ready <port>` once the app is Up. Test-only.
 *
 *   node --expose-gc main/testing/wake-proxy-process.ts <upstream origin> <upstream Host> [max connections]
 *
 * With REAPER_TEST_GC_MS set, garbage is collected that often: the memory read is then what the
 * proxy holds, not the Buffers V8 has yet to collect (it waits for 64 MiB of them by default);
 * SIGUSR2 collects at once.
 * `wakeProxyProcess` starts it and reads its memory (resident now, and at its peak) from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PROXIED_HOST = 'proxied.test';

export interface ProxyProcess {
  child: ChildProcess;
  port: number;
  /** Resident and peak resident memory of the process, in bytes (Linux). */
  memory(): { rss: number; peak: number };
  close(): Promise<void>;
}

export function wakeProxyProcess(
  upstream: { origin: string; host: string },
  options: { maxConnections?: number; gcEveryMs?: number; command?: (node: string[]) => string[] } = {},
): Promise<ProxyProcess> {
  const script = fileURLToPath(import.meta.url);
  const node = [
    process.execPath,
    '--disable-warning=ExperimentalWarning',
    '--expose-gc',
    script,
    upstream.origin,
    upstream.host,
  ];
  if (options.maxConnections) node.push(String(options.maxConnections));
  const [cmd, ...args] = options.command ? options.command(node) : node;
  const env = { ...process.env, REAPER_TEST_GC_MS: options.gcEveryMs ? String(options.gcEveryMs) : '' };
  const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /ready (\d+)/.exec(out);
      if (!m) return;
      const pid = child.pid!;
      resolve({
        child,
        port: Number(m[1]),
        memory: () => {
          const status = readFileSync(`/proc/${pid}/status`, 'utf8');
          const kb = (field: string) =>
            Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
          return { rss: kb('VmRSS'), peak: kb('VmHWM') };
        },
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill();
          }),
      });
    });
    child.once('exit', (code) =>
      reject(new Error(`the wake proxy process exited with ${code} before it was ready`)),
    );
  });
}

async function main(): Promise<void> {
  const [origin, host, max] = process.argv.slice(2);
  if (!origin || !host)
    throw new Error('usage: wake-proxy-process.ts <upstream origin> <upstream Host> [max connections]');
  const { systemClock } = await import('../engine/clocks.ts');
  const { Engine } = await import('../engine/engine.ts');
  const { InProcessCleverPort } = await import('../simulator/in-process-port.ts');
  const { SimulatedCloud } = await import('../simulator/model.ts');
  const { ConfigStore, MemoryBackend } = await import('../store/config-store.ts');
  const { SqliteStore } = await import('../store/sqlite/sqlite-store.ts');
  const { TrafficStats } = await import('../traffic/stats.ts');
  const { WakeProxy } = await import('../traffic/wake-proxy.ts');
  const cloud = new SimulatedCloud(systemClock);
  const org = cloud.addOrganisation('Proxied');
  const app = cloud.addApp(org.id, 'proxied');
  const config = new ConfigStore(new MemoryBackend());
  config.createRoute({ appId: app.id, ownerId: org.id, hosts: [PROXIED_HOST] });
  const engine = new Engine({
    clock: systemClock,
    clever: new InProcessCleverPort(cloud),
    store: new SqliteStore(':memory:'),
    config,
  });
  await engine.start();
  const connections = max ? Number(max) : undefined;
  const proxy = new WakeProxy({
    engine,
    routes: () => config.routes(),
    holdDeadlineMs: () => 120_000,
    clock: systemClock,
    stats: new TrafficStats(),
    upstream: async () => ({ origin, host }),
    ...(connections
      ? { limits: { maxConnections: connections, maxConnectionsPerAddress: connections } }
      : {}),
  });
  const address = await proxy.listen(0);
  await engine.waitFor(app.id, ['Up'], 10_000);
  const gcEvery = Number(process.env.REAPER_TEST_GC_MS);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gcEvery > 0 && gc) setInterval(gc, gcEvery).unref();
  // SIGUSR2: collect now (a benchmark about to read the memory).
  if (gc) process.on('SIGUSR2', () => gc());
  console.log(`ready ${address.port}`);
  process.on('SIGTERM', () => process.exit(0));
}

if (import.meta.main) await main();
