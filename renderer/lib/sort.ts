/** Sorting the apps table. */
import type { AppView } from '../../shared/app-view.ts';
import { type ReaperState, STATES_BY_URGENCY } from '../../shared/domain.ts';
import { nameCollator } from './format.ts';

export const SORT_KEYS = ['name', 'state', 'owner', 'lastRequest', 'sleepsAt'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

/** Compares two apps by one column; `dir` is 1 (ascending) or -1 (descending); names by `names`. */
type Compare = (a: AppView, b: AppView, dir: number, names: Intl.Collator) => number;

/** States that need attention first: the shared urgency order. */
const STATE_RANK = new Map<ReaperState, number>(STATES_BY_URGENCY.map((state, rank) => [state, rank]));
const rank = (state: ReaperState) => STATE_RANK.get(state) ?? STATES_BY_URGENCY.length;

const byName = (a: AppView, b: AppView, names: Intl.Collator) =>
  names.compare(a.name, b.name) || a.appId.localeCompare(b.appId);

/** Nulls last whatever the direction. */
function nullable(a: number | null, b: number | null, dir: number): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return (a - b) * dir;
}

/** Each column's order; ties go by name, ascending. */
const COMPARE: Record<SortKey, Compare> = {
  name: (a, b, dir, names) => byName(a, b, names) * dir,
  state: (a, b, dir, names) => (rank(a.state) - rank(b.state)) * dir || byName(a, b, names),
  owner: (a, b, dir, names) => names.compare(a.ownerName, b.ownerName) * dir || byName(a, b, names),
  lastRequest: (a, b, dir, names) => nullable(a.lastRequestAt, b.lastRequestAt, dir) || byName(a, b, names),
  sleepsAt: (a, b, dir, names) => nullable(a.sleepsAt, b.sleepsAt, dir) || byName(a, b, names),
};

/** The apps in the column's order; names as the current language sorts them. */
export function sortApps(apps: AppView[], key: SortKey, dir: SortDir): AppView[] {
  const compare = COMPARE[key];
  const d = dir === 'asc' ? 1 : -1;
  const names = nameCollator();
  return [...apps].sort((a, b) => compare(a, b, d, names));
}
