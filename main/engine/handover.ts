/**
 * The engine's side of team mode's handovers: the records of owners read again from the datastore,
 * for an owner this instance just took over (what the previous holder left pending is found there,
 * and checked against Clever Cloud before anything is sent again, as after a crash), and for owners
 * another instance acts on (the dashboard shows their apps as the datastore has them). What is
 * handed to another instance goes through the ports of EngineDeps (`elsewhere`, `handOver`); team
 * mode implements them (team/team-sync.ts, team/handover.ts).
 */
import type { AppRecord, HistoryEntry, TrafficSource } from '../../shared/domain.ts';
import { LeaseLost } from '../../shared/port-errors.ts';
import { actingNow } from './acting.ts';
import type { EngineCore, HandedAction } from './core.ts';

/**
 * Replace the in-memory records of these owners by the datastore's; announce those that changed.
 * `changed` is called for each record kept (its due time), `forgotten` for each one gone.
 */
export async function reloadOwners(
  core: EngineCore,
  ownerIds: readonly string[],
  hooks: { changed(record: AppRecord): void; forgotten(appId: string): void },
): Promise<void> {
  if (ownerIds.length === 0) return;
  const owners = new Set(ownerIds);
  const stored = (await core.deps.store.loadRecords()).filter((r) => owners.has(r.ownerId));
  const seen = new Set<string>();
  for (const record of stored) {
    seen.add(record.appId);
    const before = core.records.get(record.appId);
    if (before && sameRecord(before, record)) continue;
    core.records.set(record.appId, record);
    core.emit({ type: 'app', record });
    hooks.changed(record);
  }
  for (const [appId, record] of core.records) {
    if (owners.has(record.ownerId) && !seen.has(appId)) {
      core.records.delete(appId);
      hooks.forgotten(appId);
      core.emit({ type: 'removed', appId });
    }
  }
}

/** Records another instance wrote, apps it removed, and history entries it added. */
export interface ObservedChange {
  records?: readonly AppRecord[];
  removed?: readonly string[];
  history?: readonly HistoryEntry[];
}

/**
 * Records another instance wrote or removed, and entries it added (team mode's bus), as the
 * datastore has them now: applied for the owners this instance does not act on (its memory is the
 * truth for the others), as reloadOwners does; the entries announced.
 */
export function observed(
  core: EngineCore,
  change: ObservedChange,
  hooks: { changed(record: AppRecord): void; forgotten(appId: string): void },
): void {
  for (const record of change.records ?? []) {
    const before = core.records.get(record.appId);
    if (core.acts(record.ownerId) || (before && core.acts(before.ownerId))) continue;
    if (before && sameRecord(before, record)) continue;
    core.records.set(record.appId, record);
    core.emit({ type: 'app', record });
    hooks.changed(record);
  }
  for (const appId of change.removed ?? []) {
    const before = core.records.get(appId);
    if (!before || core.acts(before.ownerId)) continue;
    core.records.delete(appId);
    hooks.forgotten(appId);
    core.emit({ type: 'removed', appId });
  }
  for (const entry of change.history ?? []) core.emit({ type: 'history', entry });
}

function sameRecord(a: AppRecord, b: AppRecord): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof AppRecord>;
  for (const key of keys) if ((a[key] ?? null) !== (b[key] ?? null)) return false;
  return true;
}

/**
 * Team mode: an operator's action on an app whose owner another instance acts on, handed to it
 * through the port (EngineDeps.handOver); resolves once its outcome is seen here. Null when this
 * instance acts on the app itself (or has no other instance to hand it to).
 */
export function handOver(
  core: EngineCore,
  record: AppRecord,
  source: TrafficSource,
  action: HandedAction,
): Promise<void> | null {
  if (!core.deps.handOver || core.acts(record.ownerId)) return null;
  return handTo(core, record, source, action);
}

/**
 * Through the port, with the person who asked for it (the holder writes them on its entry); an
 * action kept here while the datastore is away is remembered on the app (its view says so, the
 * dashboard shows it pending) until its outcome is seen, and answered at once.
 */
async function handTo(
  core: EngineCore,
  record: AppRecord,
  source: TrafficSource,
  action: HandedAction,
): Promise<void> {
  const { appId, ownerId, name } = record;
  const answer = await core.deps.handOver!({
    appId,
    ownerId,
    name,
    source,
    at: core.deps.clock.now(),
    action,
    by: actingNow(),
  });
  if (answer !== 'kept') return;
  core.keptActions.set(appId, action);
  const latest = core.records.get(appId);
  if (latest) core.emit({ type: 'app', record: latest });
}

/**
 * Team mode: an operator's action whose write was refused because the lease was lost under it
 * (LeaseLost: another instance took the owner over while this one stalled) or the datastore is away
 * (`storageFine` false) is handed over like any action: a durable intent the owner's holder acts on
 * (team/team-sync.ts keeps it until it is written); resolves once its outcome is seen here. Null when
 * it is not: solo mode, another refusal, or an action handed over to this instance (`handed`: it
 * stays in the datastore for the next round, never handed on a second time).
 */
export function handOverAfter(
  core: EngineCore,
  error: unknown,
  record: AppRecord,
  source: TrafficSource,
  action: HandedAction,
  facts: { handed: boolean; storageFine: boolean },
): Promise<void> | null {
  const port = core.deps.handOver;
  if (!port || facts.handed || (!(error instanceof LeaseLost) && facts.storageFine)) return null;
  return handTo(core, record, source, action);
}
