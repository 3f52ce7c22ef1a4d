/**
 * The savings report computed the straightforward way, for the tests only: the whole history read on
 * each call (stateChanges from 0), each app's sleeps by savings-sleeps.ts's sleepsOf and its dry-run
 * projections by savings.ts's projectedIntervals. reports/savings-report.ts must give exactly this.
 */
import type { ReaperState } from '../../shared/domain.ts';
import { pricingOf, type SavingsReport } from '../../shared/savings.ts';
import { type AppInput, buildSavingsReport, projectedIntervals } from '../reports/savings.ts';
import { appInputOf, type SavingsSource } from '../reports/savings-report.ts';
import { inOrder, sleepsOf } from '../reports/savings-sleeps.ts';
import type { AppFacts, ReaperStore, StateChange } from '../store/contract.ts';

/** What the cached report is given (savings-report.ts), the history read straight from the store. */
export type ReferenceSource = Omit<SavingsSource, 'store'> & {
  store: Pick<ReaperStore, 'stateChanges' | 'appNames' | 'readAppFacts'>;
};

export async function referenceSavingsReport(source: ReferenceSource): Promise<SavingsReport> {
  const { store, now } = source;
  // From the start: whose sleep an app is in is told by the stop that began it, however old.
  const from = 0;
  const [{ initial, changes }, names, facts] = await Promise.all([
    store.stateChanges(from, now + 1),
    store.appNames(),
    store.readAppFacts(),
  ]);
  return fromData(source, from, initial, changes, names, facts);
}

function fromData(
  source: Omit<ReferenceSource, 'store'>,
  from: number,
  initial: Map<string, ReaperState | null>,
  changes: StateChange[],
  names: Map<string, { name: string; ownerId: string }>,
  facts: Map<string, AppFacts>,
): SavingsReport {
  const { now, timeZone, managed } = source;
  const byApp = new Map<string, StateChange[]>();
  let since: number | null = null;
  for (const c of changes) {
    if (since === null || c.at < since) since = c.at;
    const list = byApp.get(c.appId);
    if (list) list.push(c);
    else byApp.set(c.appId, [c]);
  }
  const ids = new Set<string>([...managed.keys(), ...byApp.keys()]);
  for (const [appId, state] of initial) if (state !== null) ids.add(appId);
  const apps: AppInput[] = [];
  for (const appId of ids) {
    const list = inOrder(byApp.get(appId) ?? []);
    const sleeps = sleepsOf(initial.get(appId) ?? null, list, from, now);
    const next = source.nextMustBeUpAfter;
    const projected = projectedIntervals(list, now, next ? (t) => next(appId, t) : undefined);
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
