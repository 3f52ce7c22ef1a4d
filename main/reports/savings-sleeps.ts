/**
 * Whose sleep each Asleep (Down) stretch of an app was, from its history: only the sleeps the reaper
 * caused are savings. A sleep is the reaper's when the reaper asked for it: the app went Going to
 * sleep (WaitingForShutdown, entered by the reaper: actor `reaper`) and then Asleep. An app found
 * Asleep while it was awake (Up, Waking up after a redeploy...) was stopped outside the reaper: from
 * the Clever Cloud console or clever-tools (the engine's actor `outside`), or it was already stopped
 * when put under the reaper. Those stretches are reported apart, never as savings.
 *
 * A sleep keeps its cause until the app is awake again: a start that did not bring it up (a cancelled
 * deployment, a start from outside that did not happen, an Error then a Reset read as SHOULD_BE_DOWN)
 * goes back to the same sleep. Up, Going to sleep and a release end it.
 *
 * Entries are read in the order they happened (time, then id for simultaneous ones), whatever order
 * they come in.
 */
import type { Actor, ReaperState } from '../../shared/domain.ts';
import type { Interval } from './savings-calendar.ts';

/** A state change or a dry-run note of one app, as the history has it. */
export interface Change {
  at: number;
  /** The history's id: orders entries of the same millisecond. */
  id?: number;
  kind: 'transition' | 'reset' | 'release' | 'would-sleep' | 'would-wake';
  /** The state after a transition or a reset; null after a release and on notes. */
  to: ReaperState | null;
  reason: string;
  /** Who made the change happen (absent: not known, read as the reaper's). */
  actor?: Actor;
}

export type SleepCause = 'reaper' | 'outside';

export interface Sleeps {
  /** Asleep because the reaper put the app to sleep: the savings. */
  reaper: Interval[];
  /** Asleep because it was stopped outside the reaper (or before it): not counted. */
  outside: Interval[];
  /** Whose sleep the app is in at the end (`to`), or null when it is not asleep then. */
  atEnd: SleepCause | null;
}

const isStateChange = (c: Change) => c.kind === 'transition' || c.kind === 'reset' || c.kind === 'release';

/** The changes in the order they happened: by time, then by id. */
export function inOrder(changes: readonly Change[]): Change[] {
  return [...changes].sort((a, b) => a.at - b.at || (a.id ?? 0) - (b.id ?? 0));
}

/**
 * The app's sleeps within [from, to): `initial` is its state at `from` (null when not managed) and
 * `initialCause` whose sleep it was in then, when it was asleep (unknown: outside, not counted).
 */
export function sleepsOf(
  initial: ReaperState | null,
  changes: readonly Change[],
  from: number,
  to: number,
  initialCause: SleepCause | null = null,
): Sleeps {
  const out: Sleeps = { reaper: [], outside: [], atEnd: null };
  let state = initial;
  let cause: SleepCause | null = initial === 'Down' ? (initialCause ?? 'outside') : initialCause;
  let since = from;
  for (const c of inOrder(changes)) {
    if (!isStateChange(c) || c.at < from) continue;
    if (c.at >= to) break;
    if (state === 'Down' && c.at > since) out[cause ?? 'outside'].push({ start: since, end: c.at });
    state = c.to;
    since = c.at;
    if (state === 'WaitingForShutdown') cause = c.actor === 'outside' ? 'outside' : 'reaper';
    else if (state === 'Up' || state === null) cause = null;
    else if (state === 'Down') cause ??= 'outside';
  }
  if (state === 'Down') {
    if (to > since) out[cause ?? 'outside'].push({ start: since, end: to });
    out.atEnd = cause ?? 'outside';
  }
  return out;
}

/** When the app was Asleep (Down) within [from, to), whoever put it to sleep. */
export function asleepIntervals(
  initial: ReaperState | null,
  changes: readonly Change[],
  from: number,
  to: number,
): Interval[] {
  const { reaper, outside } = sleepsOf(initial, changes, from, to);
  return [...reaper, ...outside].sort((a, b) => a.start - b.start);
}
