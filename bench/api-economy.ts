/**
 * Clever Cloud API economy: calls per steady sweep and per hour for N apps across K owners, against
 * a naive baseline that reads each app and its deployments at every sweep (as earlier reapers do).
 * Runs on the in-process simulator with a manual clock: call counts are exact, not sampled.
 *
 * The hour is realistic: most apps idle with a long grace period, one in ten with steady traffic,
 * one in ten sleeping and waking (a 10-minute grace period, a request every 25 minutes).
 */

import { ManualClock } from '../main/engine/clocks.ts';
import { Engine } from '../main/engine/engine.ts';
import { InProcessCleverPort } from '../main/simulator/in-process-port.ts';
import { SimulatedCloud } from '../main/simulator/model.ts';
import { ConfigStore, MemoryBackend } from '../main/store/config-store.ts';
import { SqliteStore } from '../main/store/sqlite/sqlite-store.ts';
import { MINUTE, SECOND } from '../shared/durations.ts';
import { round } from './stats.ts';

export interface EconomyResult {
  name: string;
  apps: number;
  owners: number;
  steadySweep: number;
  naiveSweep: number;
  perHour: number;
  naivePerHour: number;
  ratioPerHour: number;
  transitions: number;
}

export async function apiEconomy(n: number, owners: number): Promise<EconomyResult> {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9));
  const cloud = new SimulatedCloud(clock);
  const ownerIds = Array.from({ length: owners }, (_, i) => cloud.addOrganisation(`Org ${i}`).id);
  const backend = new MemoryBackend();
  const routes = [];
  const busy: string[] = [];
  const sleepy: string[] = [];
  for (let i = 0; i < n; i++) {
    const ownerId = ownerIds[i % owners]!;
    const app = cloud.addApp(ownerId, `app-${i}`);
    const kind = i % 10;
    if (kind === 1) busy.push(app.id);
    if (kind === 2) sleepy.push(app.id);
    routes.push({
      id: `route_${i}`,
      appId: app.id,
      ownerId,
      label: '',
      enabled: true,
      gracePeriodMs: kind === 2 ? 10 * MINUTE : 24 * 60 * MINUTE,
      ranges: [],
      hosts: [],
      filters: { pathPrefixes: [], sources: [] },
      createdAt: 0,
      updatedAt: 0,
    });
  }
  // Written to the backend in one go (creating them one by one would re-route n times).
  backend.set('routes', routes);
  const config = new ConfigStore(backend, () => clock.now());
  const port = new InProcessCleverPort(cloud);
  const store = new SqliteStore(':memory:');
  const engine = new Engine({ clock, clever: port, store, config });
  let transitions = 0;
  engine.on((e) => e.type === 'history' && e.entry.kind === 'transition' && transitions++);
  await engine.start();
  await clock.advance(MINUTE); // initialisation
  // A steady sweep: nothing in transit.
  let before = port.totalCalls;
  await clock.advance(30 * SECOND);
  const steadySweep = port.totalCalls - before;
  // One realistic hour.
  before = port.totalCalls;
  transitions = 0;
  for (let t = 0; t < 60 * MINUTE; t += 30 * SECOND) {
    for (const id of busy) await engine.request(id, 'access-log');
    if (t % (25 * MINUTE) === 0 && t > 0) for (const id of sleepy) await engine.request(id, 'wake-proxy');
    await clock.advance(30 * SECOND);
  }
  const perHour = port.totalCalls - before;
  await engine.stop();
  await store.close();
  const naivePerHour = 2 * n * 120;
  return {
    name: `API calls, ${n} apps across ${owners} owners`,
    apps: n,
    owners,
    steadySweep,
    naiveSweep: 2 * n,
    perHour,
    naivePerHour,
    ratioPerHour: round(naivePerHour / perHour, 1),
    transitions,
  };
}

if (import.meta.main) {
  for (const n of [10, 100, 1000, 5000])
    for (const k of [1, 3, 10]) console.log(JSON.stringify(await apiEconomy(n, k)));
}
