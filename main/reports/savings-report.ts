/** The savings report from the datastore: the history of the last 30 days and the apps' facts. */
import type { ReaperState } from '../../shared/domain.ts';
import { DAY } from '../../shared/durations.ts';
import { pricingOf, type SavingsReport } from '../../shared/savings.ts';
import type { Settings } from '../../shared/settings.ts';
import type { AppFacts, ReaperStore, StateChange } from '../store/contract.ts';
import {
  type AppInput,
  asleepIntervals,
  buildSavingsReport,
  type Change,
  lastDays,
  projectedIntervals,
} from './savings.ts';
import type { RuntimePrices } from './savings-prices.ts';

export interface SavingsSource {
  store: Pick<ReaperStore, 'stateChanges' | 'appNames' | 'readAppFacts'>;
  now: number;
  timeZone: string;
  settings: Pick<Settings, 'flavorPriceUnit' | 'eurPerDrop'>;
  /** The apps managed now, by id, with their names. */
  managed: ReadonlyMap<string, string>;
  /** The next must-be-up start of an app after `t` (ends a projected sleep), from its ranges. */
  nextMustBeUpAfter?: (appId: string, t: number) => number | null;
  /** Prices from Clever Cloud's price system (savings-prices.ts); without: the fallback for all. */
  prices?: RuntimePrices;
}

export async function loadSavingsReport(source: SavingsSource): Promise<SavingsReport> {
  const { store, now, timeZone } = source;
  const from = savingsFrom(now, timeZone);
  const [{ initial, changes }, names, facts] = await Promise.all([
    store.stateChanges(from, now + 1),
    store.appNames(),
    store.readAppFacts(),
  ]);
  return fromData(source, from, initial, changes, names, facts);
}

function savingsFrom(now: number, timeZone: string): number {
  return Math.min(lastDays(now, timeZone, 30)[0]!.start, now - 30 * DAY);
}

function fromData(
  source: Omit<SavingsSource, 'store'>,
  from: number,
  initial: Map<string, ReaperState | null>,
  changes: StateChange[],
  names: Map<string, { name: string; ownerId: string }>,
  facts: Map<string, AppFacts>,
): SavingsReport {
  const { now, timeZone, managed } = source;
  const byApp = new Map<string, Change[]>();
  for (const c of changes) {
    const list = byApp.get(c.appId);
    if (list) list.push(c);
    else byApp.set(c.appId, [c]);
  }
  const ids = new Set<string>([...managed.keys(), ...byApp.keys()]);
  for (const [appId, state] of initial) if (state !== null) ids.add(appId);
  const apps: AppInput[] = [];
  for (const appId of ids) {
    const list = byApp.get(appId) ?? [];
    const asleep = asleepIntervals(initial.get(appId) ?? null, list, from, now);
    const next = source.nextMustBeUpAfter;
    const projected = projectedIntervals(list, now, next ? (t) => next(appId, t) : undefined);
    if (!managed.has(appId) && asleep.length === 0 && projected.length === 0) continue;
    const f = facts.get(appId);
    apps.push({
      appId,
      name: managed.get(appId) ?? names.get(appId)?.name ?? appId,
      managed: managed.has(appId),
      flavorName: f?.flavorName ?? null,
      flavorPrice: f?.flavorPrice ?? null,
      instances: f ? f.minInstances : null,
      systemHourlyEur: source.prices?.perInstanceHourlyEur.get(appId) ?? null,
      asleep,
      projected,
    });
  }
  return buildSavingsReport({
    now,
    timeZone,
    apps,
    pricing: { ...pricingOf(source.settings), priceSystemProblem: source.prices?.problem ?? null },
  });
}
