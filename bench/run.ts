/**
 * `npm run bench`: every benchmark, one after the other, on this machine; the figures are printed and
 * written to bench/results.json (BENCHMARKS.md quotes a run of it). Not a test: nothing here asserts.
 *
 *   npm run bench [-- --quick]     (--quick: fewer samples and apps, to check the benchmarks run)
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { apiEconomy } from './api-economy.ts';
import { dashboardBench } from './dashboard.ts';
import { engineTick } from './engine-tick.ts';
import { idleBench } from './idle.ts';
import { reactionTimes } from './reaction.ts';
import { teamBusBench } from './team-bus.ts';
import { teamSweep } from './team-sweep.ts';
import { teamTakeover } from './team-takeover.ts';
import { wakeProxyBench } from './wake-proxy.ts';
import { wakeWaitBench } from './wake-wait.ts';
import { webSocketBench } from './websockets.ts';

const quick = process.argv.includes('--quick');
const results: Record<string, unknown>[] = [];
const note = (r: Record<string, unknown>) => {
  results.push(r);
  console.log(JSON.stringify(r));
};

console.log(
  `# ${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · ${Math.round(totalmem() / 2 ** 30)} GiB · node ${process.version}`,
);

console.log('\n## 1. Clever Cloud API economy');
for (const n of quick ? [10, 100] : [10, 100, 1000, 5000]) {
  for (const k of [1, 3, 10]) note({ ...(await apiEconomy(n, k)) });
}

console.log('\n## 2. Engine cost');
for (const n of quick ? [1000] : [1000, 10_000]) for (const r of await engineTick(n)) note(r);
for (const r of await idleBench(quick ? { apps: 100, settle: 5, seconds: 10 } : {})) note({ ...r });

console.log('\n## 3. Reaction times');
for (const r of await reactionTimes(quick ? 3 : 20)) note(r);

console.log('\n## 4. Dashboard in Chromium');
for (const r of await dashboardBench(quick ? { runs: 2, changes: 5, seconds: 3 } : {})) note(r);

console.log('\n## 5. Wake proxy');
note(await wakeProxyBench(quick ? 2 : 8));
for (const r of await wakeWaitBench(quick ? 2 : 8)) note(r);
note(await webSocketBench(quick ? { seconds: 1, idle: 500 } : {}));

console.log('\n## 6. Team mode on PostgreSQL');
for (const r of await teamSweep(1000, quick ? 1 : 5)) note(r);
for (const lease of quick ? [2] : [2, 15]) for (const r of await teamTakeover(lease, quick ? 1 : 5)) note(r);
console.log('\n## 7. Team mode across instances');
for (const r of await teamBusBench(quick ? { changes: 20, seconds: 2, wakes: 2, burst: 20, bursts: 1 } : {}))
  note(r);

console.log('\n## History at scale');
const history = execFileSync(
  process.execPath,
  [
    '--disable-warning=ExperimentalWarning',
    fileURLToPath(new URL('./history.ts', import.meta.url)),
    ...(quick ? ['--apps', '100', '--days', '30'] : []),
  ],
  { encoding: 'utf8' },
);
process.stdout.write(history);
note({ name: 'history at scale', lines: history.trim().split('\n') });

writeFileSync(
  new URL('./results.json', import.meta.url),
  `${JSON.stringify({ at: new Date().toISOString(), quick, results }, null, 2)}\n`,
);
console.log('\nwritten to bench/results.json');
