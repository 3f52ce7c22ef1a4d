/**
 * A start is followed by its own deployment, whatever came just before it (issue 24, "Must show"):
 * a table over the previous deployment's age (0 s, 5 s, 90 s, 10 min) x its state (OK, FAIL,
 * CANCELLED, WIP) x who starts (the reaper, its start answered with or without the deployment id,
 * or sent again a minute after it vanished; the console; `clever restart`, the same call) x the
 * listing delay (0 to 5 s). The previous
 * deployment is one the reaper has read (the app was reset after it, as after the Error of a failed
 * start). From the start on, the history is exactly Asleep -> Waking up -> Up, and the "two engines"
 * banner sees nothing.
 *
 * The awkward readings ride along, every combination of them met by each pair of the dimensions
 * above: the new deployment listed before or after the app changes state; dates equal (age 0) or out
 * of order (the new deployment dated before the previous one, listed above it); a failed or cancelled
 * start leaving the app WANTS_TO_BE_UP or SHOULD_BE_DOWN (both unconfirmed). A second table ends the
 * new deployment FAIL or CANCELLED: the spec's row for its own outcome, never the old entry's.
 * Manual clock and the in-process simulator.
 */
import { describe, expect, it } from 'vitest';
import { CAUSES, type DeploymentState } from '../../shared/domain.ts';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { RivalDetector } from '../service/rival-detector.ts';
import type { DeploymentOutcome, SimOptions } from '../simulator/model.ts';
import { harness } from '../testing/engine-harness.ts';

type Starter =
  | 'reaper'
  | 'reaper, answer without id'
  | 'reaper, restarted after its start vanished'
  | 'console'
  | 'clever-tools restart';

const AGES = [0, 5 * SECOND, 90 * SECOND, 10 * MINUTE];
const STATES: DeploymentState[] = ['OK', 'FAIL', 'CANCELLED', 'WIP'];
const STARTERS: Starter[] = [
  'reaper',
  'reaper, answer without id',
  'reaper, restarted after its start vanished',
  'console',
  'clever-tools restart',
];
const LISTING_DELAYS = [0, SECOND, 2500, 5 * SECOND];
const SWEEP_MS = 30 * SECOND;

interface Case {
  ageMs: number;
  previous: DeploymentState;
  starter: Starter;
  listingDelayMs: number;
  /** The new deployment listed after the app changes state (the default), or before. */
  listedFirst: boolean;
  /** The new deployment dated before the previous one (listed above it all the same). */
  datesOutOfOrder: boolean;
  afterFailedStart: SimOptions['afterFailedStart'];
  outcome: Exclude<DeploymentOutcome, 'vanish'>;
}

const describeCase = (c: Case) =>
  `${c.previous} ${c.ageMs / SECOND} s before, ${c.starter}, listed after ${c.listingDelayMs} ms` +
  `${c.listedFirst ? ' before the state change' : ''}${c.datesOutOfOrder ? ', dates out of order' : ''}` +
  `, ${c.afterFailedStart} after a failed start, new deployment ${c.outcome}`;

/** Every case of the table: the four dimensions in full, the awkward readings spread over them. */
function table(outcomes: Case['outcome'][], listingDelays = LISTING_DELAYS): Case[] {
  const cases: Case[] = [];
  AGES.forEach((ageMs, a) => {
    STATES.forEach((previous, s) => {
      STARTERS.forEach((starter, w) => {
        listingDelays.forEach((listingDelayMs, l) => {
          outcomes.forEach((outcome, o) => {
            // A sum modulo 8: each pair of dimensions meets all eight awkward combinations.
            const awkward = (a + s + w + l + o) % 8;
            cases.push({
              ageMs,
              previous,
              starter,
              listingDelayMs,
              listedFirst: (awkward & 1) === 1,
              datesOutOfOrder: (awkward & 2) === 2,
              afterFailedStart: (awkward & 4) === 4 ? 'SHOULD_BE_DOWN' : 'WANTS_TO_BE_UP',
              outcome,
            });
          });
        });
      });
    });
  });
  return cases;
}

/** One case: the transitions from the start on ("from -> to"), the cause, and the banner's count. */
async function run(
  c: Case,
): Promise<{ history: string[]; cause: string | null; rivals: number; starts: number }> {
  const h = harness({
    sim: {
      listingDelayMs: c.listingDelayMs,
      startStateDelayMs: c.listedFirst ? c.listingDelayMs + 2 * SECOND : 0,
      afterFailedStart: c.afterFailedStart,
      startAnswersDeploymentId: c.starter === 'reaper',
      deploymentDateOffsetMs: c.datesOutOfOrder ? -(c.ageMs + 30 * SECOND) : 0,
      // Long enough that a run of the job sees a failing start under way before it ends.
      failAfterMs: 2 * MINUTE,
    },
  });
  const app = h.manage('site', { state: 'SHOULD_BE_DOWN' });
  await h.engine.start();
  try {
    await h.until(() => h.state(app.id) === 'Down', MINUTE);
    // The start lands within the listing delay before a run of the job (runs tick at :00 and :30):
    // that run sees the app starting while the newest deployment listed is the previous one.
    const sweep = Math.ceil(h.clock.now() / SWEEP_MS) * SWEEP_MS + SWEEP_MS;
    await h.clock.advanceTo(sweep - c.listingDelayMs / 2);
    // The past: a deployment that ended `previous`, `ageMs` before the start, read by the reaper.
    h.cloud.placeDeployment(app.id, c.ageMs, c.previous);
    await h.engine.reset(app.id);
    expect(h.state(app.id)).toBe('Down');
    // Transitions from here on (the reset's own are at the same instant, before).
    const before = h.historyOf(app.id).length;
    // The first start vanishes (its answer carries an id, nothing follows): sent again after a minute,
    // that second answer without its id, within two minutes of the previous deployment.
    if (c.starter === 'reaper, restarted after its start vanished') h.cloud.injectOutcomes(app.id, 'vanish');
    if (c.outcome !== 'ok') h.cloud.injectOutcomes(app.id, c.outcome);
    switch (c.starter) {
      case 'reaper':
      case 'reaper, answer without id':
      case 'reaper, restarted after its start vanished':
        await h.engine.wake(app.id, 'dashboard');
        break;
      case 'console':
        h.cloud.consoleStart(app.id);
        break;
      case 'clever-tools restart':
        h.cloud.cleverToolsRestart(app.id);
        break;
    }
    const since = () =>
      h
        .historyOf(app.id)
        .reverse()
        .slice(before)
        .filter((e) => e.kind === 'transition');
    const settled = () => {
      const history = since();
      const last = history.at(-1)?.to;
      return history.length >= 2 && (last === 'Up' || last === 'Error' || last === 'Down');
    };
    await h.until(settled, 20 * MINUTE, 2 * SECOND);
    // And nothing more after it: no flap back to Asleep, no late Error.
    await h.clock.advance(2 * MINUTE);
    const entries = h.historyOf(app.id).reverse();
    const detector = new RivalDetector();
    for (const e of entries) detector.note(e);
    const history = since().map((e) => `${e.from} -> ${e.to}`);
    return {
      history,
      cause: h.engine.get(app.id)?.cause ?? null,
      rivals: detector.suspects(h.clock.now()).length,
      starts: h.port.calls.get('startApplication') ?? 0,
    };
  } finally {
    await h.engine.stop();
  }
}

/**
 * A vanished start is sent again only while Clever Cloud shows no sign of it: the app SHOULD_BE_DOWN
 * and nothing under way (it may be queued behind another one, or hidden as queued). An app already
 * WANTS_TO_BE_UP before it (left so by the previous FAIL or CANCELLED), or a stale WIP newest, shows
 * such a sign: the start is not sent again, and the spec's row is the fail timeout, not the old entry.
 */
function resendBlocked(c: Case): boolean {
  if (c.starter !== 'reaper, restarted after its start vanished') return false;
  const leftWanting = c.previous === 'FAIL' || c.previous === 'CANCELLED';
  return c.previous === 'WIP' || (leftWanting && c.afterFailedStart === 'WANTS_TO_BE_UP');
}

const TIMED_OUT = { history: ['Down -> WaitingForUp', 'WaitingForUp -> Error'], cause: CAUSES.startTimeout };

const EXPECTED: Record<Case['outcome'], { history: string[]; cause: string | null }> = {
  ok: { history: ['Down -> WaitingForUp', 'WaitingForUp -> Up'], cause: null },
  // "any | FAIL | Error", and the cause says its deployment failed.
  fail: { history: ['Down -> WaitingForUp', 'WaitingForUp -> Error'], cause: CAUSES.startFailed },
  // "WANTS_TO_BE_UP, SHOULD_BE_DOWN | CANCELLED | Down: the next request asks again".
  cancel: { history: ['Down -> WaitingForUp', 'WaitingForUp -> Down'], cause: null },
};

/** Run every case; the ones whose history is not the expected one, described. */
async function failures(cases: Case[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const c of cases) {
    const { history, cause, rivals, starts } = await run(c);
    // The reaper's starts sent: none for a start made outside, two when a vanished one is sent again.
    const reaper = c.starter.startsWith('reaper');
    const again = c.starter === 'reaper, restarted after its start vanished' && !resendBlocked(c);
    const expectedStarts = again ? 2 : reaper ? 1 : 0;
    const expected = resendBlocked(c) ? TIMED_OUT : EXPECTED[c.outcome];
    const ok = JSON.stringify(history) === JSON.stringify(expected.history) && cause === expected.cause;
    if (!ok || rivals !== 0 || starts !== expectedStarts) {
      wrong.push(
        `${describeCase(c)}: ${history.join(', ') || 'no transition'}${cause ? ` (${cause})` : ''}${rivals ? ', two engines suspected' : ''}, ${starts} starts sent`,
      );
    }
  }
  return wrong;
}

describe('a start after a recent deployment follows its own deployment', () => {
  it('reads Asleep -> Waking up -> Up in every case of the table (320 cases)', async () => {
    const cases = table(['ok']);
    expect(cases).toHaveLength(320);
    // The awkward readings are all there.
    expect(new Set(cases.map((c) => `${c.listedFirst}${c.datesOutOfOrder}${c.afterFailedStart}`)).size).toBe(
      8,
    );
    const wrong = await failures(cases);
    if (wrong.length) console.log(`${wrong.length} of ${cases.length} cases failed:\n${wrong.join('\n')}`);
    expect(wrong).toEqual([]);
  }, 240_000);

  it("a new deployment that fails or is cancelled has its own row, never the old entry's (160 cases)", async () => {
    const cases = table(['fail', 'cancel'], [2 * SECOND]);
    expect(cases).toHaveLength(160);
    const wrong = await failures(cases);
    if (wrong.length) console.log(`${wrong.length} of ${cases.length} cases failed:\n${wrong.join('\n')}`);
    expect(wrong).toEqual([]);
  }, 240_000);
});
