/**
 * The savings report from the datastore: all the history kept (the retention's days; "all time" is
 * since its oldest entry) and the apps' facts. The history is read through the datastore's savings
 * cache (savings-cache.ts): a report reads only what was written since the last one. The answer is
 * the straightforward one (every state change read, savings-sleeps.ts's sleepsOf and savings.ts's
 * projectedIntervals per app: main/testing/savings-reference.ts), which a test checks.
 */
import { pricingOf, type SavingsReport } from '../../shared/savings.ts';
import type { Settings } from '../../shared/settings.ts';
import type { AppFacts, ReaperStore } from '../store/contract.ts';
import { type AppInput, buildSavingsReport, merge } from './savings.ts';
import { type AppSleepHistory, type SavingsStore, savingsCacheOf } from './savings-cache.ts';
import type { Interval } from './savings-calendar.ts';
import type { RuntimePrices } from './savings-prices.ts';
import type { Sleeps } from './savings-sleeps.ts';

export interface SavingsSource {
  store: SavingsStore & Pick<ReaperStore, 'appNames' | 'readAppFacts'>;
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
  const { store } = source;
  const [history, names, facts] = await Promise.all([
    savingsCacheOf(store).read(),
    store.appNames(),
    store.readAppFacts(),
  ]);
  return fromHistory(source, history, names, facts);
}

/** The app's sleeps within [0, now): its stretches cut at `now`, and whose sleep it is in then. */
function sleepsAt(app: AppSleepHistory, now: number): Sleeps {
  const out: Sleeps = { reaper: [], outside: [], atEnd: null };
  for (const p of app.pieces) {
    if (p.start >= now) break;
    const end = Math.min(p.end, now);
    if (end > p.start) out[p.cause].push({ start: p.start, end });
    if (p.end >= now) out.atEnd = p.cause;
  }
  return out;
}

/** Dry-run: the sleeps the reaper would have done before `now` (projectedIntervals' rules). */
function projectedAt(app: AppSleepHistory, now: number, nextMustBeUpAfter?: (t: number) => number | null) {
  const out: Interval[] = [];
  for (const n of app.notes) {
    if (n.at >= now) break;
    let end = Math.min(now, n.next);
    const range = nextMustBeUpAfter ? nextMustBeUpAfter(n.at) : null;
    if (range !== null) end = Math.min(end, range);
    if (end > n.at) out.push({ start: n.at, end });
  }
  return merge(out);
}

/**
 * One app's row of the report from its sleeps and projected sleeps, with its name, flavour and
 * price; null for an app no longer managed that never slept (it has no place in the report).
 */
export function appInputOf(
  source: Pick<SavingsSource, 'managed' | 'prices'>,
  appId: string,
  sleeps: Sleeps,
  projected: Interval[],
  names: ReadonlyMap<string, { name: string }>,
  facts: ReadonlyMap<string, AppFacts>,
): AppInput | null {
  const { managed } = source;
  const slept = sleeps.reaper.length + sleeps.outside.length + projected.length > 0;
  if (!managed.has(appId) && !slept) return null;
  const f = facts.get(appId);
  return {
    appId,
    name: managed.get(appId) ?? names.get(appId)?.name ?? appId,
    managed: managed.has(appId),
    flavorName: f?.flavorName ?? null,
    flavorPrice: f?.flavorPrice ?? null,
    instances: f ? f.minInstances : null,
    systemHourlyEur: source.prices?.perInstanceHourlyEur.get(appId) ?? null,
    asleep: sleeps.reaper,
    outside: sleeps.outside,
    // A released app is asleep for nobody: it is not under the reaper anymore.
    asleepNow: managed.has(appId) ? sleeps.atEnd : null,
    projected,
  };
}

function fromHistory(
  source: Omit<SavingsSource, 'store'>,
  history: ReadonlyMap<string, AppSleepHistory>,
  names: Map<string, { name: string; ownerId: string }>,
  facts: Map<string, AppFacts>,
): SavingsReport {
  const { now, timeZone, managed } = source;
  // The apps with entries up to now, in the order of their first entry (time, then id), as the
  // straightforward reading meets them: the order of the sums.
  const seen: [string, AppSleepHistory][] = [];
  let since: number | null = null;
  for (const [appId, app] of history) {
    if (app.oldestAt > now) continue;
    seen.push([appId, app]);
    if (since === null || app.oldestAt < since) since = app.oldestAt;
  }
  seen.sort(([, a], [, b]) => a.oldestAt - b.oldestAt || a.oldestIds[0]! - b.oldestIds[0]!);
  const ids = new Set<string>([...managed.keys(), ...seen.map(([appId]) => appId)]);
  const apps: AppInput[] = [];
  for (const appId of ids) {
    const app = history.get(appId);
    const known = app && app.oldestAt <= now ? app : undefined;
    const sleeps: Sleeps = known ? sleepsAt(known, now) : { reaper: [], outside: [], atEnd: null };
    const next = source.nextMustBeUpAfter;
    const projected = known ? projectedAt(known, now, next ? (t) => next(appId, t) : undefined) : [];
    const input = appInputOf(source, appId, sleeps, projected, names, facts);
    if (input) apps.push(input);
  }
  return buildSavingsReport({
    now,
    timeZone,
    since,
    apps,
    pricing: { ...pricingOf(source.settings), priceSystemProblem: source.prices?.problem ?? null },
  });
}
