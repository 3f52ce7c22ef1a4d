import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../shared/domain.ts';
import { timelineSegments, timeTicks } from './timeline.ts';

const T = Date.UTC(2026, 0, 5, 9);
const entry = (
  at: number,
  from: HistoryEntry['from'],
  to: HistoryEntry['to'],
  kind: HistoryEntry['kind'] = 'transition',
): HistoryEntry => ({
  appId: 'app_1',
  at,
  kind,
  from,
  to,
  actor: 'reaper',
  reason: '',
});

describe('the timeline of an app', () => {
  it('has one segment per state between transitions, up to now', () => {
    const history = [
      entry(T + 30, 'WaitingForShutdown', 'Down'),
      entry(T + 20, 'Up', 'WaitingForShutdown'),
      entry(T + 25, null, null, 'stop-asked'),
      entry(T + 10, 'WaitingForInit', 'Up'),
    ];
    expect(timelineSegments(history, 'Down', T, T + 100)).toEqual([
      { state: 'Up', start: T + 10, end: T + 20 },
      { state: 'WaitingForShutdown', start: T + 20, end: T + 30 },
      { state: 'Down', start: T + 30, end: T + 100 },
    ]);
  });

  it('clips to the window and counts a reset as a transition', () => {
    const history = [
      entry(T + 50, 'Error', 'WaitingForInit', 'reset'),
      entry(T - 500, 'WaitingForUp', 'Error'),
    ];
    expect(timelineSegments(history, 'WaitingForInit', T, T + 100)).toEqual([
      { state: 'Error', start: T, end: T + 50 },
      { state: 'WaitingForInit', start: T + 50, end: T + 100 },
    ]);
  });

  it('shows the current state alone when there is no history', () => {
    expect(timelineSegments([], 'Up', T, T + 100)).toEqual([{ state: 'Up', start: T, end: T + 100 }]);
  });

  it('puts about the asked number of round ticks on the axis', () => {
    const ticks = timeTicks(T, T + 24 * 3_600_000, 6);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(7);
    for (const t of ticks) expect(t % 3_600_000).toBe(0);
  });
});
