/**
 * Two engines acting on the same apps (two desktops, or a desktop and a headless server) would fight:
 * one stops an app, the other sees "stopped outside the reaper", and both act again. Until a shared
 * lease exists, the reaper detects the sign of it, stops and starts it did not issue on apps it
 * manages, repeatedly, and says so loudly (a red banner) rather than fight in silence.
 */
import type { HistoryEntry } from '../../shared/domain.ts';
import { HOUR } from '../../shared/durations.ts';

export const RIVAL_WINDOW_MS = 6 * HOUR;
/** Outside stops or starts of one app within the window before it is a sign. */
export const RIVAL_THRESHOLD = 2;

/** A stop or a start that Clever Cloud shows and the reaper did not issue. */
export function isOutsideAction(e: HistoryEntry): boolean {
  if (e.kind !== 'transition' || e.actor !== 'outside') return false;
  return e.to === 'Down' || e.to === 'WaitingForUp' || (e.to === 'Up' && e.from === 'Down');
}

export class RivalDetector {
  private readonly seen = new Map<string, number[]>();

  note(entry: HistoryEntry): void {
    if (!isOutsideAction(entry)) return;
    const times = this.seen.get(entry.appId) ?? [];
    times.push(entry.at);
    this.seen.set(entry.appId, times);
  }

  /** Apps with repeated outside stops and starts in the window ending now, most first. */
  suspects(now: number): { appId: string; count: number }[] {
    const out: { appId: string; count: number }[] = [];
    for (const [appId, times] of this.seen) {
      const recent = times.filter((t) => t > now - RIVAL_WINDOW_MS && t <= now);
      if (recent.length !== times.length) this.seen.set(appId, recent);
      if (recent.length >= RIVAL_THRESHOLD) out.push({ appId, count: recent.length });
    }
    return out.sort((a, b) => b.count - a.count);
  }

  /** The banner's words, or null when there is no sign. */
  problem(now: number, nameOf: (appId: string) => string): string | null {
    const suspects = this.suspects(now);
    if (!suspects.length) return null;
    const list = suspects
      .slice(0, 5)
      .map((s) => `${nameOf(s.appId)} (${s.count} times)`)
      .join(', ');
    return (
      `Something else stopped or started ${suspects.length === 1 ? 'an app' : `${suspects.length} apps`} the reaper manages, ` +
      `repeatedly in the last 6 hours: ${list}. If another Clever Reaper (a desktop or a headless server) manages them ` +
      'too, the two are fighting: keep one engine per app (see "Running it as a team" in the README).'
    );
  }
}
