/**
 * The states of an app over a window of time, from its history: one segment per state, for the
 * timeline chart of the app's detail.
 */
import type { HistoryEntry, ReaperState } from '../../shared/domain.ts';

export interface Segment {
  state: ReaperState;
  start: number;
  end: number;
}

/**
 * Segments covering [from, to] as far as the history knows. `history` is newest first (as the API
 * gives it); `current` is the state now. Time before the first known transition is left out.
 */
export function timelineSegments(
  history: readonly HistoryEntry[],
  current: ReaperState,
  from: number,
  to: number,
): Segment[] {
  const transitions = history
    .filter((h) => h.to !== null && (h.kind === 'transition' || h.kind === 'reset'))
    .sort((a, b) => a.at - b.at || (a.id ?? 0) - (b.id ?? 0));
  const segments: Segment[] = [];
  for (let i = 0; i < transitions.length; i++) {
    const t = transitions[i]!;
    const next = transitions[i + 1];
    const start = t.at;
    const end = next ? next.at : to;
    if (end <= from || start >= to) continue;
    segments.push({ state: t.to!, start: Math.max(start, from), end: Math.min(end, to) });
  }
  if (transitions.length === 0) return [{ state: current, start: from, end: to }];
  // The last known transition leads to the current state; if they differ, a release or a
  // datastore reload happened: the current state is authoritative for the last segment.
  const last = segments.at(-1);
  if (last && last.end === to && last.state !== current) last.state = current;
  return segments.filter((s) => s.end > s.start);
}

/** Ticks for the time axis of a window: about `count` round times. */
export function timeTicks(from: number, to: number, count = 6): number[] {
  const span = to - from;
  const steps = [
    60_000,
    5 * 60_000,
    15 * 60_000,
    30 * 60_000,
    3_600_000,
    3 * 3_600_000,
    6 * 3_600_000,
    12 * 3_600_000,
    86_400_000,
  ];
  const step = steps.find((s) => span / s <= count) ?? 86_400_000;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}
