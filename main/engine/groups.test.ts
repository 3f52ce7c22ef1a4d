/**
 * Rules and groups: the pure group decisions, then the job over time (manual clock, in-process
 * simulated Clever Cloud, SQLite in memory).
 */
import { describe, expect, it } from 'vitest';
import { newRecord } from '../../shared/domain.ts';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { harness } from '../testing/engine-harness.ts';
import {
  type GroupContext,
  type GroupMember,
  groupNotes,
  groupSleepBlocker,
  groupSleepDueAt,
  membersToWake,
} from './decide-group.ts';

const T = Date.UTC(2026, 0, 5, 9, 0, 0);

function member(name: string, state: GroupMember['state'], extra: Partial<GroupMember> = {}): GroupMember {
  return { appId: `app_${name}`, name, state, blocker: null, dueAt: null, ...extra };
}

describe('group decisions (pure)', () => {
  it('an Up member waits for a member still within its grace period, saying until when', async () => {
    const g: GroupContext = {
      name: 'pr-1',
      members: [
        member('api', 'Up'),
        member('worker', 'Up', { blocker: 'traffic within the grace period', dueAt: T + HOUR }),
      ],
    };
    expect(groupSleepBlocker(g)).toBe(
      'waiting for group member worker (grace period ends at 2026-01-05T10:00:00.000Z)',
    );
    expect(groupSleepDueAt(T + 10 * MINUTE, g)).toBe(T + HOUR);
    expect(groupSleepDueAt(T + 2 * HOUR, g)).toBe(T + 2 * HOUR);
    expect(groupSleepDueAt(null, g)).toBeNull();
  });

  it('members asleep, going to sleep or in Error do not hold the others; waking ones do', async () => {
    const quiet: GroupContext = {
      name: 'g',
      members: [member('a', 'Down'), member('b', 'WaitingForShutdown'), member('c', 'Error')],
    };
    expect(groupSleepBlocker(quiet)).toBeNull();
    expect(groupSleepBlocker({ name: 'g', members: [member('d', 'WaitingForUp')] })).toBe(
      'waiting for group member d (waking up)',
    );
    expect(
      groupSleepBlocker({ name: 'g', members: [member('e', 'Up', { blocker: 'kept awake', dueAt: T })] }),
    ).toBe('waiting for group member e (kept awake, until 2026-01-05T09:00:00.000Z)');
  });

  it('the group says which member is in Error and that it does not hold it awake', async () => {
    expect(
      groupNotes([
        { name: 'api', state: 'Error', cause: 'the app failed to start on clever cloud' },
        { name: 'front', state: 'Up', cause: null },
      ]),
    ).toEqual([
      'api is in Error (the app failed to start on clever cloud): it does not hold the group awake',
    ]);
  });

  it('a request wakes the other members that sleep, not those awake or in Error', async () => {
    const r = (id: string, state: GroupMember['state']) => ({ ...newRecord(id, 'orga_x', id, T), state });
    const woken = membersToWake('app_a', [
      r('app_a', 'Down'),
      r('app_b', 'Down'),
      r('app_c', 'WaitingForShutdown'),
      r('app_d', 'Up'),
      r('app_e', 'Error'),
      { ...r('app_f', 'Down'), wakeRequestedAt: T },
    ]);
    expect(woken.map((m) => m.appId)).toEqual(['app_b', 'app_c']);
  });
});

describe('rules over time', () => {
  it('an app created on Clever Cloud is managed from the next sweep; deleted, it is released, its history kept', async () => {
    const h = harness();
    h.cloud.addApp(h.org.id, 'prod-shop');
    h.config.createRule({ pattern: 'review-*', ownerId: h.org.id, gracePeriodMs: 10 * MINUTE });
    await h.engine.start();
    await h.clock.advance(SECOND);
    expect(h.engine.list()).toEqual([]);

    const created = h.cloud.addApp(h.org.id, 'review-42');
    await h.clock.advance(30 * SECOND);
    await h.engine.reconcileNow();
    expect(h.engine.get(created.id)).toMatchObject({ name: 'review-42', state: 'Up' });
    expect(h.engine.routingOf(created.id)?.ruleId).toBe(h.config.rules()[0]!.id);
    expect((await h.store.historyOf(created.id, 10)).at(-1)?.reason).toBe(
      "put under the reaper by rule 'review-*'",
    );

    h.cloud.deleteApp(created.id);
    await h.clock.advance(30 * SECOND);
    await h.engine.reconcileNow();
    expect(h.engine.get(created.id)).toBeUndefined();
    const history = await h.store.historyOf(created.id, 10);
    expect(history[0]).toMatchObject({
      kind: 'release',
      reason: 'released: Clever Cloud no longer knows the app, forgotten',
    });
    expect(history.length).toBeGreaterThan(1);
    await h.engine.stop();
  });

  it('a rule saved while the engine runs is applied at once, not at the next sweep tick', async () => {
    const h = harness();
    await h.engine.start();
    await h.clock.advance(SECOND);
    const app = h.cloud.addApp(h.org.id, 'review-9');
    h.config.createRule({ pattern: 'review-*' });
    await h.clock.advance(SECOND);
    expect(h.engine.get(app.id)?.state).toBe('Up');
    await h.engine.stop();
  });

  it('a shorter sweep interval is followed from the waiting sweep on', async () => {
    const h = harness();
    h.config.createRule({ pattern: 'review-*' });
    await h.engine.start();
    await h.clock.advance(SECOND);
    h.config.updateSettings({ intervalMs: 2 * SECOND, fastIntervalMs: SECOND });
    const app = h.cloud.addApp(h.org.id, 'review-10');
    await h.clock.advance(3 * SECOND);
    expect(h.engine.get(app.id)?.state).toBe('Up');
    await h.engine.stop();
  });

  it('a rule in dry-run records the sleep it would do, and stops nothing', async () => {
    const h = harness();
    const app = h.cloud.addApp(h.org.id, 'review-1');
    h.config.createRule({ pattern: 'review-*', gracePeriodMs: 10 * MINUTE, dryRun: true });
    await h.engine.start();
    await h.clock.advance(SECOND);
    await h.clock.advance(15 * MINUTE);
    expect(h.engine.get(app.id)?.state).toBe('Up');
    expect((await h.store.historyOf(app.id, 10)).some((e) => e.kind === 'would-sleep')).toBe(true);
    await h.engine.stop();
  });
});

describe('groups over time', () => {
  async function reviewEnvironment() {
    const h = harness();
    const names = ['shop-front-pr-7', 'shop-api-pr-7', 'shop-worker-pr-7'];
    const apps = names.map((n) => h.cloud.addApp(h.org.id, n));
    h.config.createRule({ pattern: 'shop-*-pr-*', gracePeriodMs: 10 * MINUTE, group: 'pr-{2}' });
    await h.engine.start();
    await h.clock.advance(SECOND);
    return { h, apps };
  }

  it('a group sleeps only when every member is past its grace period', async () => {
    const { h, apps } = await reviewEnvironment();
    const [front, api, worker] = apps;
    expect(apps.map((a) => h.engine.routingOf(a.id)?.group)).toEqual(['pr-7', 'pr-7', 'pr-7']);
    await h.clock.advance(5 * MINUTE);
    await h.engine.request(worker!.id, 'access-log');
    const workerIdle = h.clock.now();
    await h.clock.advance(6 * MINUTE);
    // front and api are past their own grace period, worker is not: all three stay up.
    expect(apps.map((a) => h.state(a.id))).toEqual(['Up', 'Up', 'Up']);
    expect(h.engine.dueAt(front!.id)).toBe(workerIdle + 10 * MINUTE);
    await h.clock.advanceTo(workerIdle + 10 * MINUTE + 40 * SECOND);
    expect(apps.map((a) => h.state(a.id))).toEqual(['Down', 'Down', 'Down']);
    expect((await h.store.historyOf(api!.id, 20)).some((e) => e.to === 'WaitingForShutdown')).toBe(true);
    await h.engine.stop();
  });

  it('a request for one member wakes the group; each member says why in its history', async () => {
    const { h, apps } = await reviewEnvironment();
    await h.clock.advance(11 * MINUTE);
    await h.clock.advance(MINUTE);
    expect(apps.map((a) => h.state(a.id))).toEqual(['Down', 'Down', 'Down']);
    await h.engine.request(apps[1]!.id, 'wake-proxy');
    expect(apps.map((a) => h.state(a.id))).toEqual(['WaitingForUp', 'WaitingForUp', 'WaitingForUp']);
    const reasons = await Promise.all(
      apps.map(async (a) => (await h.store.historyOf(a.id, 20)).find((e) => e.to === 'WaitingForUp')?.reason),
    );
    expect(reasons).toEqual([
      'woken with its group (request for shop-api-pr-7)',
      'asked for by wake-proxy',
      'woken with its group (request for shop-api-pr-7)',
    ]);
    await h.clock.advance(2 * MINUTE);
    expect(apps.map((a) => h.state(a.id))).toEqual(['Up', 'Up', 'Up']);
    await h.engine.stop();
  });

  it('a member in Error does not hold the others awake nor stop their wake', async () => {
    const { h, apps } = await reviewEnvironment();
    const [front, api, worker] = apps;
    h.cloud.setState(api!.id, 'MODERATED');
    await h.engine.reconcileNow();
    expect(h.state(api!.id)).toBe('Error');
    await h.clock.advance(11 * MINUTE);
    await h.clock.advance(MINUTE);
    expect([h.state(front!.id), h.state(worker!.id)]).toEqual(['Down', 'Down']);
    await h.engine.request(front!.id, 'dashboard');
    expect([h.state(front!.id), h.state(api!.id), h.state(worker!.id)]).toEqual([
      'WaitingForUp',
      'Error',
      'WaitingForUp',
    ]);
    await h.engine.stop();
  });
});
