/** Sorting the apps table. */
import type { AppView } from '../../shared/app-view.ts';
import type { ReaperState } from '../../shared/domain.ts';

export type SortKey = 'name' | 'state' | 'owner' | 'lastRequest' | 'sleepsAt';
export type SortDir = 'asc' | 'desc';

/** States that need attention first. */
const STATE_RANK: Record<ReaperState, number> = {
  Error: 0,
  WaitingForUp: 1,
  WaitingForShutdown: 2,
  WaitingForInit: 3,
  Up: 4,
  Down: 5,
};

const byName = (a: AppView, b: AppView) => a.name.localeCompare(b.name) || a.appId.localeCompare(b.appId);

/** Nulls last whatever the direction. */
function nullable(a: number | null, b: number | null, dir: number): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return (a - b) * dir;
}

export function sortApps(apps: AppView[], key: SortKey, dir: SortDir): AppView[] {
  const d = dir === 'asc' ? 1 : -1;
  const cmp: (a: AppView, b: AppView) => number =
    key === 'name'
      ? (a, b) => byName(a, b) * d
      : key === 'state'
        ? (a, b) => (STATE_RANK[a.state] - STATE_RANK[b.state]) * d || byName(a, b)
        : key === 'owner'
          ? (a, b) => a.ownerName.localeCompare(b.ownerName) * d || byName(a, b)
          : key === 'lastRequest'
            ? (a, b) => nullable(a.lastRequestAt, b.lastRequestAt, d) || byName(a, b)
            : (a, b) => nullable(a.sleepsAt, b.sleepsAt, d) || byName(a, b);
  return [...apps].sort(cmp);
}
