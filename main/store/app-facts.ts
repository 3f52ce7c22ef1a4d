/**
 * What the savings estimate needs to know of each app that the engine's records do not keep: its
 * instance count and flavor, with the flavor's price as the Clever Cloud API gives it. Recorded from
 * the applications the engine reads anyway (see main/service/observed-port.ts), written only when
 * they change, and kept after a release like the history.
 */
import type { CleverApp } from '../engine/ports.ts';
import type { AppFacts, ReaperStore } from './contract.ts';
import type { Datastore } from './datastore.ts';

export type { AppFacts };

type Known = Omit<AppFacts, 'appId' | 'seenAt'>;

/** Records facts, skipping those already written (a sweep over a thousand apps writes nothing new). */
export class AppFactsRecorder {
  private readonly store: Datastore;
  private readonly known = new Map<string, Known>();
  private readonly upsert;

  constructor(store: Datastore) {
    this.store = store;
    for (const f of readAppFacts(store).values()) this.known.set(f.appId, f);
    this.upsert = store.db.prepare(
      `INSERT INTO app_facts (app_id, flavor_name, flavor_price, min_instances, max_instances, seen_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (app_id) DO UPDATE SET flavor_name = excluded.flavor_name,
         flavor_price = excluded.flavor_price, min_instances = excluded.min_instances,
         max_instances = excluded.max_instances, seen_at = excluded.seen_at`,
    );
  }

  /** Write the facts of these apps that changed, in one transaction. Throws when the write fails. */
  record(apps: readonly CleverApp[], now: number): number {
    const changed = changedFacts(this.known, apps);
    if (changed.length === 0) return 0;
    this.store.transaction(() => {
      for (const [appId, f] of changed) {
        this.upsert.run(appId, f.flavorName, f.flavorPrice, f.minInstances, f.maxInstances, now);
      }
    });
    for (const [appId, f] of changed) this.known.set(appId, f);
    return changed.length;
  }
}

/** The facts of these apps that differ from those known. */
function changedFacts(known: ReadonlyMap<string, Known>, apps: readonly CleverApp[]): [string, Known][] {
  const changed: [string, Known][] = [];
  for (const app of apps) {
    if (!app.instances) continue;
    const next: Known = {
      flavorName: app.instances.flavorName,
      flavorPrice: app.instances.flavorPrice,
      minInstances: app.instances.min,
      maxInstances: app.instances.max,
    };
    const before = known.get(app.id);
    if (
      before &&
      before.flavorName === next.flavorName &&
      before.flavorPrice === next.flavorPrice &&
      before.minInstances === next.minInstances &&
      before.maxInstances === next.maxInstances
    ) {
      continue;
    }
    changed.push([app.id, next]);
  }
  return changed;
}

/** The same, on a datastore that answers later (PostgreSQL): one write at a time, known facts read first. */
export class SharedFactsRecorder {
  private readonly store: ReaperStore;
  private known: Map<string, Known> | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(store: ReaperStore) {
    this.store = store;
  }

  record(apps: readonly CleverApp[], now: number): Promise<number> {
    const run = this.chain.then(async () => {
      this.known ??= new Map(await this.store.readAppFacts());
      const changed = changedFacts(this.known, apps);
      if (changed.length === 0) return 0;
      await this.store.writeAppFacts(changed.map(([appId, f]) => ({ appId, ...f, seenAt: now })));
      for (const [appId, f] of changed) this.known.set(appId, f);
      return changed.length;
    });
    this.chain = run.catch(() => {});
    return run;
  }
}

export function readAppFacts(store: Datastore): Map<string, AppFacts> {
  const rows = store.db
    .prepare('SELECT app_id, flavor_name, flavor_price, min_instances, max_instances, seen_at FROM app_facts')
    .all() as {
    app_id: string;
    flavor_name: string | null;
    flavor_price: number | null;
    min_instances: number;
    max_instances: number;
    seen_at: number;
  }[];
  return new Map(
    rows.map((r) => [
      r.app_id,
      {
        appId: r.app_id,
        flavorName: r.flavor_name,
        flavorPrice: r.flavor_price,
        minInstances: r.min_instances,
        maxInstances: r.max_instances,
        seenAt: r.seen_at,
      },
    ]),
  );
}
