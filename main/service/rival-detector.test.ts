import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../shared/domain.ts';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { MemoryBackend } from '../store/config-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { FixedCredentials } from './credentials.ts';
import { ReaperService } from './reaper-service.ts';
import { RivalDetector } from './rival-detector.ts';
import { createSessionFactory } from './session.ts';

const T = MONDAY_9AM;
const outside = (
  appId: string,
  at: number,
  to: HistoryEntry['to'],
  from: HistoryEntry['from'] = 'Up',
): HistoryEntry => ({
  appId,
  at,
  kind: 'transition',
  from,
  to,
  actor: 'outside',
  reason: 'stopped outside the reaper',
});

describe('signs of another engine acting on the same apps', () => {
  it('one outside stop is a person; repeated stops and starts of one app within 6 hours are a sign', () => {
    const d = new RivalDetector();
    d.note(outside('app_1', T, 'Down'));
    expect(d.suspects(T)).toEqual([]);
    d.note(outside('app_1', T + HOUR, 'WaitingForUp', 'Down'));
    expect(d.suspects(T + HOUR)).toEqual([{ appId: 'app_1', count: 2 }]);
    expect(d.problem(T + HOUR, () => 'staging')).toMatch(
      /^Something else stopped or started an app the reaper manages, repeatedly in the last 6 hours: staging \(2 times\)\. If another Clever Reaper/,
    );
    expect(d.suspects(T + 7 * HOUR)).toEqual([]);
  });

  it("the reaper's own stops and starts, and other kinds of entries, are no sign", () => {
    const d = new RivalDetector();
    for (let i = 0; i < 5; i++) d.note({ ...outside('app_1', T + i, 'Down'), actor: 'reaper' });
    d.note({ ...outside('app_1', T, 'Down'), kind: 'stop-asked' });
    d.note(outside('app_1', T, 'WaitingForUp', 'Up')); // a redeploy of a running app
    expect(d.suspects(T + MINUTE)).toEqual([]);
  });

  it('the service shows it as a problem when Clever Cloud keeps changing an app behind its back', async () => {
    const clock = new ManualClock(T);
    const cloud = new SimulatedCloud(clock);
    const org = cloud.addOrganisation('Acme');
    const app = cloud.addApp(org.id, 'staging');
    const service = new ReaperService({
      sessions: createSessionFactory({
        demoClock: clock,
        accountClock: clock,
        timeScale: 1,
        scenario: 'e2e',
        accountBackend: () => new MemoryBackend(),
        accountDatastore: () => ({ store: new SqliteStore(':memory:'), problem: null }),
      }),
      credentials: new FixedCredentials(new InProcessCleverPort(cloud)),
      initial: 'account',
      version: 'test',
    });
    await service.start();
    try {
      const api = service.api();
      await api.createRoute({ appId: app.id, ownerId: org.id });
      await clock.advance(10 * SECOND);
      expect((await api.status()).problems).toEqual([]);
      cloud.consoleStop(app.id); // "another reaper" stops it...
      await clock.advance(MINUTE);
      cloud.consoleStart(app.id); // ...and starts it again
      await clock.advance(MINUTE);
      const problems = (await api.status()).problems;
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('staging (2 times)');
    } finally {
      await service.close();
    }
  });
});
