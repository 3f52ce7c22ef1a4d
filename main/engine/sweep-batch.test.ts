/**
 * A sweep's writes on a store that answers later: the changes that call nothing (an app stopped or
 * started from outside) are written for all of an owner's apps in one commit, not
 * eight at a time behind the limit of the evaluations; the apps that ask for a call still go
 * through an evaluation, their write before their call.
 */
import { describe, expect, it } from 'vitest';
import { DAY, SECOND } from '../../shared/durations.ts';
import type { StoreCommit } from '../../shared/port-errors.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import { harness } from '../testing/engine-harness.ts';
import type { EngineStore } from './ports.ts';

/** The store, with each commit's changes kept in the order sent. */
function counting() {
  const store = new SqliteStore(':memory:');
  const commits: StoreCommit[][] = [];
  const engineStore: EngineStore = {
    loadRecords: () => store.loadRecords(),
    commit(change, guard) {
      commits.push(Array.isArray(change) ? [...change] : [change as StoreCommit]);
      return store.commit(change, guard);
    },
  };
  return { store, engineStore, commits };
}

describe("a sweep's writes", () => {
  it("write an owner's changes that call nothing in one commit, each app once", async () => {
    const { store, engineStore, commits } = counting();
    const h = harness({ store, engineStore });
    const beta = h.cloud.addOrganisation('Beta');
    const apps = [
      ...Array.from({ length: 30 }, (_, i) => h.manage(`acme-${i}`, {}, { gracePeriodMs: DAY })),
      ...Array.from({ length: 20 }, (_, i) =>
        h.manage(`beta-${i}`, {}, { ownerId: beta.id, gracePeriodMs: DAY }),
      ),
    ];
    await h.engine.start();
    expect(await h.until(() => apps.every((a) => h.state(a.id) === 'Up'), 5 * 60 * SECOND)).not.toBeNull();
    commits.length = 0;
    for (const a of apps) h.cloud.consoleStop(a.id);
    expect(await h.until(() => apps.every((a) => h.state(a.id) === 'Down'), 5 * 60 * SECOND)).not.toBeNull();
    const downs = commits.filter((c) => c.some((s) => s.history.some((e) => e.to === 'Down')));
    expect(downs).toHaveLength(2);
    for (const c of downs) {
      const ids = c.map((s) => s.upsert!.appId);
      expect(new Set(ids).size).toBe(ids.length);
      const owners = new Set(c.map((s) => s.upsert!.ownerId));
      expect(owners.size).toBe(1);
      expect(c).toHaveLength(owners.has(beta.id) ? 20 : 30);
    }
    // Every app's history says it once, in order.
    for (const a of apps) {
      const tos = (await store.historyOf(a.id)).map((e) => e.to).reverse();
      expect(tos).toEqual(['WaitingForInit', 'Up', 'Down']);
    }
    await h.engine.stop();
  });

  it('still evaluate an app whose change asks for a call, its write before the call', async () => {
    const { store, engineStore, commits } = counting();
    const h = harness({ store, engineStore });
    const quiet = Array.from({ length: 12 }, (_, i) => h.manage(`quiet-${i}`, {}, { gracePeriodMs: DAY }));
    const idle = h.manage('idle', {}, { gracePeriodMs: 60 * SECOND });
    await h.engine.start();
    expect(await h.until(() => h.state(idle.id) === 'Down', 10 * 60 * SECOND)).not.toBeNull();
    expect(quiet.every((a) => h.state(a.id) === 'Up')).toBe(true);
    const kinds = (await store.historyOf(idle.id)).map((e) => `${e.kind}:${e.to ?? ''}`).reverse();
    expect(kinds).toEqual([
      'transition:WaitingForInit',
      'transition:Up',
      'transition:WaitingForShutdown',
      'stop-asked:',
      'transition:Down',
    ]);
    // The stop's decision was its own write (the call follows it), not in a batch of first looks.
    const shutdown = commits.find((c) => c.some((s) => s.history.some((e) => e.to === 'WaitingForShutdown')));
    expect(shutdown?.map((s) => s.upsert?.appId)).toEqual([idle.id]);
    await h.engine.stop();
  });
});
