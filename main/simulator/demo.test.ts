import { describe, expect, it } from 'vitest';
import { REAPER_STATES, type ReaperState } from '../../shared/domain.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { Engine } from '../engine/engine.ts';
import { ConfigStore, MemoryBackend } from '../store/config-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { buildDemoScenario, UNROUTED_DEMO_APPS } from './demo.ts';
import { InProcessCleverPort } from './in-process-port.ts';

describe('the demo scenario', () => {
  it('shows every console state within ten minutes', async () => {
    const clock = new ManualClock(MONDAY_9AM);
    const demo = buildDemoScenario(clock);
    const config = new ConfigStore(new MemoryBackend(), () => clock.now());
    config.updateSettings(demo.settings);
    for (const app of demo.apps) config.createRoute(app.route);
    const engine = new Engine({
      clock,
      clever: new InProcessCleverPort(demo.cloud),
      store: new SqliteStore(':memory:'),
      config,
    });
    const seen = new Map<ReaperState, number>();
    engine.on((e) => {
      if (e.type === 'app' && !seen.has(e.record.state)) seen.set(e.record.state, clock.now() - MONDAY_9AM);
    });
    const refused: unknown[] = [];
    const stopTraffic = demo.startTraffic((appId, at) => {
      engine.request(appId, 'access-log', at).catch((error: unknown) => refused.push(error));
    });
    await engine.start();
    for (let t = 0; t < 10 * MINUTE; t += 5 * SECOND) await clock.advance(5 * SECOND);
    stopTraffic();
    await engine.stop();
    expect([...seen.keys()].sort()).toEqual([...REAPER_STATES].sort());
    expect(refused).toEqual([]);
    const causes = engine
      .list()
      .filter((r) => r.state === 'Error')
      .map((r) => `${r.name}: ${r.cause}`)
      .sort();
    expect(causes).toEqual([
      'billing-preview: the app failed to start on clever cloud',
      'legacy-admin: the app was never deployed, it cannot be started',
      'metrics-dashboard: the app did not stop within the fail timeout',
      "partner-portal: unexpected clever cloud state 'MODERATED'",
    ]);
  });

  it('leaves a few apps of the account under no route, for "Your first route" to pick', () => {
    const demo = buildDemoScenario(new ManualClock(MONDAY_9AM));
    const routed = new Set(demo.apps.map((a) => a.appId));
    const unrouted = [...demo.cloud.apps.values()].filter((a) => !routed.has(a.id)).map((a) => a.name);
    expect(unrouted.sort()).toEqual([...UNROUTED_DEMO_APPS].sort());
    expect(demo.apps.length).toBeGreaterThan(unrouted.length);
  });
});
