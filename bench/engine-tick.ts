/**
 * Engine cost: the duration of one sweep (every app read, decided, written when changed) and of one
 * fast tick, for 1,000 and 10,000 managed apps, on the in-process simulator (no HTTP) and a real
 * SQLite file, on a manual clock. Prints median and worst of the measured ticks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../main/engine/engine.ts';
import { InProcessCleverPort } from '../main/simulator/in-process-port.ts';
import { SqliteStore } from '../main/store/sqlite/sqlite-store.ts';
import { SECOND } from '../shared/durations.ts';
import { routedCloud } from './routed-cloud.ts';
import { type Result, stats } from './stats.ts';

export async function engineTick(n: number, owners = 10): Promise<Result[]> {
  const { clock, cloud, config, routes } = routedCloud(n, owners);
  const dir = mkdtempSync(join(tmpdir(), 'reaper-bench-'));
  const store = new SqliteStore(join(dir, 'reaper.db'));
  const engine = new Engine({ clock, clever: new InProcessCleverPort(cloud), store, config });
  const sweeps: number[] = [];
  const fast: number[] = [];
  engine.on((e) => {
    if (e.type === 'tick' && e.pace === 'sweep') sweeps.push(e.durationMs);
    if (e.type === 'tick' && e.pace === 'fast') fast.push(e.durationMs);
  });
  const started = performance.now();
  await engine.start();
  await clock.advance(10 * SECOND); // initialisation of every app
  const initMs = performance.now() - started;
  sweeps.length = 0;
  fast.length = 0;
  // Thirty steady sweeps; every tenth app gets traffic between two sweeps (a write each).
  for (let s = 0; s < 30; s++) {
    for (let i = 0; i < n; i += 10) await engine.request(routes[i]!.appId, 'access-log');
    await clock.advance(30 * SECOND);
  }
  if (process.env.BENCH_VERBOSE) console.log('sweeps', sweeps.map((x) => Math.round(x)).join(' '));
  await engine.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return [
    { name: `engine: first run (every app initialised) for ${n} apps`, unit: 'ms', ...stats([initMs]) },
    { name: `engine: one sweep of ${n} apps`, unit: 'ms', ...stats(sweeps) },
    { name: `engine: one fast tick with ${n} apps managed`, unit: 'ms', ...stats(fast) },
  ];
}

if (import.meta.main) {
  for (const n of [1000, 10_000]) for (const r of await engineTick(n)) console.log(JSON.stringify(r));
}
