/**
 * What the savings estimate needs to know of each app that the engine's records do not keep: its
 * instance count and flavor, with the flavor's price as the Clever Cloud API gives it. Recorded from
 * the applications the engine reads anyway (see main/service/observed-port.ts), written only when
 * they change, and kept after a release like the history.
 */
import type { CleverApp } from '../engine/ports.ts';
import type { AppFacts, ReaperStore } from './contract.ts';

type Known = Omit<AppFacts, 'appId' | 'seenAt'>;

/**
 * Records facts, skipping those already written (a sweep over a thousand apps writes nothing new):
 * the known facts read once, then one write at a time, each only of what changed.
 */
export class AppFactsRecorder {
  private readonly store: Pick<ReaperStore, 'readAppFacts' | 'writeAppFacts'>;
  private known: Map<string, Known> | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(store: Pick<ReaperStore, 'readAppFacts' | 'writeAppFacts'>) {
    this.store = store;
  }

  /** Write the facts of these apps that changed, in one transaction; how many. Rejects when it fails. */
  record(apps: readonly CleverApp[], now: number): Promise<number> {
    const run = this.chain.then(async () => {
      this.known ??= new Map(await this.store.readAppFacts());
      const changed = changedFacts(this.known, apps);
      if (changed.length === 0) return 0;
      await this.store.writeAppFacts(changed.map(([appId, f]) => ({ appId, ...f, seenAt: now })));
      for (const [appId, f] of changed) this.known.set(appId, f);
      return changed.length;
    });
    // The next write waits for this one, whatever its outcome (the caller has the outcome).
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
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
