/**
 * A start made from the Clever Cloud console, placed at random moments around the sweep, while its
 * deployment is not listed yet (issue 13, "Must show"): whatever the app's past (stopped cleanly, its
 * last deployment failed, or left WANTS_TO_BE_UP by a cancelled start), its history from the start
 * on reads Asleep -> Waking up -> Up, nothing else, and no "two engines" sign. 100 seeded runs on a
 * manual clock and the in-process simulator (the same scenario over HTTP is in deployments.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { RivalDetector } from '../service/rival-detector.ts';
import { harness } from '../testing/engine-harness.ts';

type Past = 'stopped' | 'last deployment failed' | 'start cancelled';

const SWEEP_MS = 30 * SECOND;
const LISTING_MS = 10 * SECOND;

async function consoleStartRun(
  past: Past,
  offsetMs: number,
): Promise<{ history: string[]; rivals: number; seenAfterMs: number }> {
  const h = harness({ sim: { listingDelayMs: LISTING_MS } });
  const app =
    past === 'start cancelled'
      ? h.manage('site', { state: 'WANTS_TO_BE_UP', lastDeployment: 'CANCELLED' })
      : h.manage('site', {
          state: 'SHOULD_BE_DOWN',
          lastDeployment: past === 'last deployment failed' ? 'FAIL' : 'OK',
        });
  await h.engine.start();
  try {
    await h.clock.advance(SECOND);
    expect(h.state(app.id)).toBe('Down');
    // The start lands `offsetMs` around the second sweep from now (sweeps tick at :00 and :30).
    const sweep = Math.ceil(h.clock.now() / SWEEP_MS) * SWEEP_MS + SWEEP_MS;
    await h.clock.advanceTo(sweep + offsetMs);
    const startedAt = h.clock.now();
    h.cloud.consoleStart(app.id);
    await h.until(() => h.state(app.id) === 'Up', 5 * MINUTE);
    const entries = (await h.store.historyOf(app.id)).reverse();
    const detector = new RivalDetector();
    for (const e of entries) detector.note(e);
    const after = entries.filter((e) => e.kind === 'transition' && e.at >= startedAt);
    const history = after.map((e) => `${e.from} -> ${e.to}`);
    const seenAfterMs = (after[0]?.at ?? Number.POSITIVE_INFINITY) - startedAt;
    return { history, rivals: detector.suspects(h.clock.now()).length, seenAfterMs };
  } finally {
    await h.engine.stop();
  }
}

describe('a console start during the listing delay', () => {
  it('reads Asleep -> Waking up -> Up, nothing else, wherever it lands around the sweep', async () => {
    const seen = new Set<string>();
    let beforeListed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Past>('stopped', 'last deployment failed', 'start cancelled'),
        fc.integer({ min: -LISTING_MS, max: LISTING_MS }),
        async (past, offsetMs) => {
          const { history, rivals, seenAfterMs } = await consoleStartRun(past, offsetMs);
          seen.add(past);
          if (seenAfterMs < LISTING_MS) beforeListed++;
          expect(history).toEqual(['Down -> WaitingForUp', 'WaitingForUp -> Up']);
          expect(rivals).toBe(0);
        },
      ),
      { numRuns: 100, seed: 13 },
    );
    expect(seen.size).toBe(3);
    // Many starts were seen by a sweep before their deployment was listed: the case of the bug.
    expect(beforeListed).toBeGreaterThan(20);
    console.log(`console starts seen before their deployment was listed: ${beforeListed} of 100`);
  }, 20_000);
});
