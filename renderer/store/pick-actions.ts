/**
 * The apps picked for a bulk action (renderer/lib/selection.ts), the bulk action under way and its
 * per-app result, and how the table is shown (density, grouping by owner; kept in this browser).
 * The bulk call itself is a change action (change-actions.ts: `bulk`).
 */
import type { AppView } from '../../shared/app-view.ts';
import type { BulkAction, BulkResult } from '../../shared/bulk.ts';
import { errorText } from '../lib/errors.ts';
import {
  EMPTY_SELECTION,
  extendFocus,
  extendTo,
  keepOnly,
  type Selection,
  selectAll,
  toggle,
} from '../lib/selection.ts';
import type { ChangeActions } from './change-actions.ts';

export type Density = 'comfortable' | 'compact';

export interface BulkRun {
  action: BulkAction;
  appIds: string[];
  /** The apps' names when the action started (a disabled app leaves the list). */
  names: Record<string, string>;
  running: boolean;
  result: BulkResult | null;
  /** The whole request was refused (nothing was done): why. */
  error: string | null;
}

export interface PickState {
  picked: Selection;
  bulkRun: BulkRun | null;
  density: Density;
  groupByOwner: boolean;
}

export interface PickActions {
  /** Click on a row's box: toggle it; with Shift, the range from the last one clicked. */
  pick(appId: string, order: readonly string[], range: boolean): void;
  /** Shift+arrow from one row to the next: both are picked. */
  pickAlong(order: readonly string[], from: string, to: string): void;
  /** Ctrl/Cmd+A: the apps shown (or none, when they all are). */
  pickAll(shown: readonly string[]): void;
  clearPicked(): void;
  /** Run a bulk action; its result (or why it was refused) is kept in `bulkRun`. */
  runBulk(action: BulkAction, appIds: string[], until?: number | null): Promise<void>;
  dismissBulk(): void;
  setDensity(density: Density): void;
  setGroupByOwner(on: boolean): void;
}

const PREFS_KEY = 'clever-reaper.apps-table';

interface Prefs {
  density: Density;
  groupByOwner: boolean;
}

function loadPrefs(): Prefs {
  const prefs: Prefs = { density: 'comfortable', groupByOwner: false };
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(PREFS_KEY) ?? '{}') as Partial<Prefs>;
    if (saved.density === 'compact') prefs.density = 'compact';
    if (saved.groupByOwner === true) prefs.groupByOwner = true;
  } catch {
    // No storage, or a damaged value: the defaults.
  }
  return prefs;
}

function savePrefs(prefs: Prefs): void {
  try {
    globalThis.localStorage?.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Storage full or refused: the choice lasts for this page.
  }
}

/**
 * `saved`: the table's preferences kept in this browser; false: the defaults, as the server renders
 * the first screen (its hydration must render the same; `savedPrefs()` follows it).
 */
export function pickInitial(saved = true): PickState {
  return {
    picked: EMPTY_SELECTION,
    bulkRun: null,
    ...(saved ? loadPrefs() : { density: 'comfortable', groupByOwner: false }),
  };
}

/** The table's preferences kept in this browser. */
export function savedPrefs(): Pick<PickState, 'density' | 'groupByOwner'> {
  return loadPrefs();
}

type Host = PickState & Pick<ChangeActions, 'bulk'> & { apps: Record<string, AppView> };

export function pickActions(set: (patch: Partial<PickState>) => void, get: () => Host): PickActions {
  const prefs = (): Prefs => ({ density: get().density, groupByOwner: get().groupByOwner });
  return {
    pick(appId, order, range) {
      const { picked } = get();
      set({ picked: range ? extendTo(picked, order, appId) : toggle(picked, appId) });
    },

    pickAlong(order, from, to) {
      set({ picked: extendFocus(get().picked, order, from, to) });
    },

    pickAll(shown) {
      set({ picked: selectAll(get().picked, shown) });
    },

    clearPicked() {
      set({ picked: EMPTY_SELECTION });
    },

    async runBulk(action, appIds, until) {
      const apps = get().apps;
      const names = Object.fromEntries(appIds.map((id) => [id, apps[id]?.name ?? id]));
      const run: BulkRun = { action, appIds, names, running: true, result: null, error: null };
      set({ bulkRun: run });
      try {
        const result = await get().bulk(action, appIds, until);
        set({ bulkRun: { ...run, running: false, result } });
        // Released apps leave the selection; the others stay picked for a next action.
        set({ picked: keepOnly(get().picked, (id) => get().apps[id] !== undefined) });
      } catch (error) {
        set({ bulkRun: { ...run, running: false, error: errorText(error) } });
      }
    },

    dismissBulk() {
      set({ bulkRun: null });
    },

    setDensity(density) {
      set({ density });
      savePrefs({ ...prefs(), density });
    },

    setGroupByOwner(groupByOwner) {
      set({ groupByOwner });
      savePrefs({ ...prefs(), groupByOwner });
    },
  };
}
