/**
 * The access logs across a restart of the reaper (a crash, a deploy, an instance that stalls): a
 * request logged while the reaper was away is read when its stream opens again, however long the
 * reaper was away within LOOK_BACK_MAX_MS, and what it had counted already is not counted twice.
 * The streams, the real client and the simulator over HTTP, on a clock 100 times faster; where the
 * first connection starts, as a function, on the awkward cases (recent, equal, in the future, old).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import { accessLogFollowerOf } from '../testing/access-log-follower.ts';
import { type LiveHarness, liveHarness } from '../testing/live-harness.ts';
import { type AccessLogFollower, firstSince, LOOK_BACK_MAX_MS, LOOK_BACK_MIN_MS } from './access-logs.ts';
import { TrafficStats } from './stats.ts';

const NOW = Date.UTC(2026, 11, 2, 12);

describe('where an app’s first connection starts', () => {
  const at = (lastRequestAt: number | null, stateSince: number) =>
    firstSince({ lastRequestAt, stateSince }, NOW);

  it('after the last thing the reaper knew of the app: its last request or its last change of state', () => {
    expect(at(NOW - 10 * MINUTE, NOW - 20 * MINUTE)).toBe(NOW - 10 * MINUTE);
    expect(at(NOW - 30 * MINUTE, NOW - 12 * MINUTE)).toBe(NOW - 12 * MINUTE);
    expect(at(null, NOW - 7 * MINUTE)).toBe(NOW - 7 * MINUTE);
    // Both at the same moment.
    expect(at(NOW - 5 * MINUTE, NOW - 5 * MINUTE)).toBe(NOW - 5 * MINUTE);
  });

  it('at least a minute back (a request made while the stream opens), at most an hour', () => {
    // Recent, just now, in the future (another instance's clock ahead): a minute back.
    for (const known of [NOW - 10 * SECOND, NOW, NOW + 5 * MINUTE])
      expect(at(known, known)).toBe(NOW - LOOK_BACK_MIN_MS);
    expect(at(NOW - LOOK_BACK_MIN_MS, NOW - HOUR)).toBe(NOW - LOOK_BACK_MIN_MS);
    // Old: an hour back, not to the app's last request days ago.
    expect(at(NOW - 3 * 24 * HOUR, NOW - 5 * HOUR)).toBe(NOW - LOOK_BACK_MAX_MS);
    expect(at(null, NOW - LOOK_BACK_MAX_MS)).toBe(NOW - LOOK_BACK_MAX_MS);
    // An app the reaper knows nothing of yet: a minute back.
    expect(firstSince(undefined, NOW)).toBe(NOW - LOOK_BACK_MIN_MS);
  });
});

describe('the access logs across a restart of the reaper', () => {
  let h: LiveHarness;
  let follower: AccessLogFollower | null = null;
  afterEach(async () => {
    await follower?.stop();
    follower = null;
    await h?.close();
  });

  function follow(stats = new TrafficStats()) {
    follower = accessLogFollowerOf(h, { stats });
    follower.start();
    return stats;
  }

  /** The reaper away: its streams closed, until the engine's clock has run `ms` more. */
  async function away(ms: number, meanwhile: () => void) {
    await follower?.stop();
    follower = null;
    const back = h.clock.now() + ms;
    meanwhile();
    await h.eventually(() => h.clock.now() >= back, 'the time away');
  }

  it('a request logged for an Asleep app while the reaper was away for minutes wakes it when it is back', async () => {
    h = await liveHarness();
    const app = h.manage('asleep', { state: 'SHOULD_BE_DOWN' }, { gracePeriodMs: HOUR });
    await h.engine.start();
    follow();
    await h.eventually(
      () => h.state(app.id) === 'Down' && follower!.status(app.id)?.connected === true,
      'Down, its stream open',
    );
    // Away for 5 minutes of engine time: longer than the first connection's minute of old.
    await away(5 * MINUTE, () => h.cloud.recordRequest(app.id, { path: '/' }));
    expect(h.state(app.id)).toBe('Down');
    const stats = follow();
    await h.eventually(() => h.state(app.id) === 'WaitingForUp', 'woken by the request made while away');
    expect(stats.get(app.id).counted).toBe(1);
    expect(h.engine.get(app.id)!.lastRequestSource).toBe('access-log');
  });

  it('an awake app: what was counted before is not counted again, what came while away is', async () => {
    h = await liveHarness();
    const app = h.manage('busy', {}, { gracePeriodMs: HOUR });
    await h.engine.start();
    const before = follow();
    await h.eventually(
      () => h.state(app.id) === 'Up' && follower!.status(app.id)?.connected === true,
      'Up, its stream open',
    );
    for (let i = 0; i < 3; i++) h.cloud.recordRequest(app.id, { path: `/a${i}` });
    await h.eventually(() => before.get(app.id).counted === 3, 'the first three counted');
    await h.eventually(() => h.engine.get(app.id)!.lastRequestAt !== null, 'the last request written');
    const counted = h.engine.get(app.id)!.lastRequestAt!;
    await away(3 * MINUTE, () => {
      for (let i = 0; i < 2; i++) h.cloud.recordRequest(app.id, { path: `/b${i}` });
    });
    const after = follow();
    await h.eventually(() => after.get(app.id).counted >= 2, 'the two made while away');
    // The look-back starts at the app's last request: the stream sends that one again too, skipped.
    await h.eventually(() => follower!.status(app.id)!.events >= 3, 'the last counted one read again');
    expect(after.get(app.id).counted).toBe(2);
    expect(h.engine.get(app.id)!.lastRequestAt).toBeGreaterThan(counted);
  });

  it('until its first connection has sent what it had, an app’s traffic is unread: no sleep meanwhile', async () => {
    // Ten times faster: the first heartbeat (2 s) comes well within the minute it is waited for.
    h = await liveHarness({ factor: 10 });
    const app = h.manage('busy', {}, { gracePeriodMs: HOUR });
    await h.engine.start();
    follower = accessLogFollowerOf(h);
    // Made, not started yet (the engine starts first): nothing is read, so nothing is known.
    expect(follower.unread(app.id)).toBe(true);
    const started = h.clock.now();
    follower.start();
    expect(follower.unread(app.id)).toBe(true);
    // The first heartbeat comes after what the stream had to send.
    await h.eventually(() => !follower!.unread(app.id), 'read');
    expect(follower.status(app.id)?.connected).toBe(true);
    expect(h.clock.now() - started).toBeLessThan(LOOK_BACK_MIN_MS);
    await follower.stop();
    // Stopped: nothing is held any more.
    expect(follower.unread(app.id)).toBe(false);
  });

  it('a stream that sends nothing is waited for a minute of engine time, no more', async () => {
    h = await liveHarness();
    const app = h.manage('busy', {}, { gracePeriodMs: HOUR });
    await h.engine.start();
    follower = accessLogFollowerOf(h, {
      // Connected, silent: until the follower stops it.
      source: (_owner, _id, { signal }) =>
        new Promise<void>((done) => signal.addEventListener('abort', () => done(), { once: true })),
      silenceMs: 60_000,
    });
    const started = h.clock.now();
    follower.start();
    await h.eventually(() => !follower!.unread(app.id), 'not waited for');
    expect(h.clock.now() - started).toBeGreaterThanOrEqual(LOOK_BACK_MIN_MS);
  });

  it('a stream that fails is not waited for', async () => {
    h = await liveHarness();
    const app = h.manage('busy', {}, { gracePeriodMs: HOUR });
    await h.engine.start();
    let tries = 0;
    follower = accessLogFollowerOf(h, {
      source: async () => {
        tries++;
        throw new Error('the access logs are down');
      },
    });
    follower.start();
    await h.eventually(() => tries > 0 && !follower!.unread(app.id), 'not waited for');
  });
});
