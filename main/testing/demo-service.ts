/**
 * Test support: a ReaperService on the in-process demo (the e2e scenario) with in-memory stores,
 * on a manual clock at Monday 9:00, not started yet (a test may subscribe before it starts).
 */
import { ManualClock } from '../engine/clocks.ts';
import { DemoOnlyCredentials } from '../service/credentials.ts';
import { ReaperService } from '../service/reaper-service.ts';
import { createSessionFactory } from '../service/session.ts';
import { MemoryBackend } from '../store/config-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { MONDAY_9AM } from './engine-harness.ts';

export function demoService(options: { initial?: 'demo' | 'account'; version: string }): {
  service: ReaperService;
  clock: ManualClock;
} {
  const clock = new ManualClock(MONDAY_9AM);
  const service = new ReaperService({
    sessions: createSessionFactory({
      demoClock: clock,
      timeScale: 1,
      scenario: 'e2e',
      accountBackend: () => new MemoryBackend(),
      accountDatastore: () => ({ store: new SqliteStore(':memory:'), problem: null }),
      inProcessDemo: true,
    }),
    credentials: new DemoOnlyCredentials(),
    initial: options.initial ?? 'demo',
    version: options.version,
  });
  return { service, clock };
}
