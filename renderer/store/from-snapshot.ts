/** The dashboard's state as a snapshot gives it (at start, after a reconnection, or the page's own). */
import type { AppView, ReaperStatus, Snapshot } from '../../shared/api.ts';
import type { Route } from '../../shared/routes.ts';
import type { Rule } from '../../shared/rules.ts';
import type { Settings } from '../../shared/settings.ts';

export interface SnapshotState {
  phase: 'ready';
  status: ReaperStatus;
  /** The engine's clock at the snapshot: its `now`, heard now. */
  clock: { serverNow: number; localNow: number; scale: number };
  apps: Record<string, AppView>;
  routes: Route[];
  rules: Rule[];
  settings: Settings;
}

export function fromSnapshot(snap: Snapshot, localNow = Date.now()): SnapshotState {
  return {
    phase: 'ready',
    status: snap.status,
    clock: { serverNow: snap.status.now, localNow, scale: snap.status.timeScale },
    apps: Object.fromEntries(snap.apps.map((a) => [a.appId, a])),
    routes: snap.routes,
    rules: snap.rules,
    settings: snap.settings,
  };
}

/**
 * The page's snapshot (renderer/ssr.tsx) was taken before the event stream opened: the first event
 * heard must be the next after it (`seq`, null when the page had none), else events passed in
 * between: `gap` says so, once.
 */
export function firstEventCheck(seq: number | null) {
  let expect = seq;
  return {
    pending: () => expect !== null,
    gap(heard: number): boolean {
      if (expect === null || heard <= 0) return false;
      const gap = heard !== expect + 1;
      expect = null;
      return gap;
    },
  };
}
