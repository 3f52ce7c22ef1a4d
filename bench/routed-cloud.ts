/**
 * What the in-process engine benchmarks start from: `n` apps over `owners` organisations of a
 * simulated Clever Cloud on a manual clock (Monday 5 January 2026, 09:00 UTC), each with an enabled
 * route of a day's grace period, written to the config's backend in one go (creating them one by one would
 * re-route n times).
 */
import { ManualClock } from '../main/engine/clocks.ts';
import { SimulatedCloud } from '../main/simulator/model.ts';
import { ConfigStore, MemoryBackend } from '../main/store/config-store.ts';
import { HOUR } from '../shared/durations.ts';

export function routedCloud(n: number, owners: number) {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9));
  const cloud = new SimulatedCloud(clock);
  const ownerIds = Array.from({ length: owners }, (_, i) => cloud.addOrganisation(`Org ${i}`).id);
  const routes = [];
  for (let i = 0; i < n; i++) {
    const ownerId = ownerIds[i % owners]!;
    const app = cloud.addApp(ownerId, `app-${i}`);
    routes.push({ appId: app.id, ownerId, gracePeriodMs: 24 * HOUR });
  }
  const backend = new MemoryBackend();
  backend.set(
    'routes',
    routes.map((r, i) => ({
      id: `route_${i}`,
      label: '',
      enabled: true,
      ranges: [],
      hosts: [],
      filters: { pathPrefixes: [], sources: [] },
      createdAt: 0,
      updatedAt: 0,
      ...r,
    })),
  );
  const config = new ConfigStore(backend, () => clock.now());
  return { clock, cloud, ownerIds, config, routes };
}
