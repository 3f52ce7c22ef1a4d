/**
 * The datastore contract's savings reads (contract.ts: savingsChangesAfter, savingsChangesOf,
 * savingsOldest, historyIdsLeft), the same answers on SQLite and on PostgreSQL (a throwaway cluster), checked
 * against the entries written.
 */
import { expect, it } from 'vitest';
import { type HistoryEntry, newRecord } from '../../shared/domain.ts';
import { MINUTE } from '../../shared/durations.ts';
import { describeEachDatastore } from '../testing/datastores.ts';
import { historyEntry } from '../testing/fixtures.ts';
import type { ReaperStore, StateChange } from './contract.ts';

const T = Date.UTC(2026, 0, 5, 9);

/** Two apps, entries of every kind the savings read and one they do not, some sharing an instant. */
function entries(): HistoryEntry[] {
  return [
    historyEntry('app_a', T + 2 * MINUTE, { to: 'WaitingForShutdown' }),
    historyEntry('app_b', T + MINUTE, { kind: 'stop-asked', from: null, to: null, reason: 'asked' }),
    historyEntry('app_b', T + MINUTE, { from: 'Up', to: 'Down', actor: 'outside', reason: 'console' }),
    historyEntry('app_a', T + MINUTE, { from: 'WaitingForShutdown', to: 'Down' }),
    historyEntry('app_b', T + MINUTE, { kind: 'would-sleep', from: null, to: null, reason: 'dry-run: x' }),
    historyEntry('app_a', T + 3 * MINUTE, { kind: 'would-wake', from: null, to: null, reason: 'hidden' }),
    historyEntry('app_b', T + 4 * MINUTE, { kind: 'release', from: 'Down', to: null, actor: 'operator' }),
    historyEntry('app_a', T + 5 * MINUTE, { kind: 'reset', from: 'Down', to: 'Up', actor: 'operator' }),
  ];
}

async function load(store: ReaperStore) {
  await store.commit({ upsert: newRecord('app_a', 'orga_x', 'a', T), history: [] });
  for (const h of entries()) await store.commit({ history: [h] });
}

/** What the reads must give: the entries written (ids 1...), the savings' kinds only. */
function expected(): StateChange[] {
  return entries()
    .map((h, i) => ({ h, id: i + 1 }))
    .filter(({ h }) => h.kind !== 'stop-asked')
    .map(({ h, id }) => ({
      appId: h.appId,
      at: h.at,
      id,
      kind: h.kind as StateChange['kind'],
      to: h.kind === 'release' ? null : h.to,
      reason: h.kind === 'would-sleep' ? h.reason : '',
      actor: h.actor,
    }));
}

describeEachDatastore(
  (name) => `the ${name} datastore's savings reads`,
  (open) => {
    it('reads the state changes and dry-run notes after an id, by id, a slice at a time', async () => {
      const { store } = await open();
      await load(store);
      const all = expected();
      const firstId = (await store.savingsChangesAfter(0, 1))[0]!.id;
      const shift = (list: StateChange[]) => list.map((c) => ({ ...c, id: c.id + firstId - 1 }));
      expect(await store.savingsChangesAfter(0, 100)).toEqual(shift(all));
      expect(await store.savingsChangesAfter(firstId + 1, 2)).toEqual(shift(all).slice(1, 3)); // ids 3 and 4: id 2 is a stop-asked;
      expect(await store.savingsChangesAfter(firstId + 100, 10)).toEqual([]);
    });

    it("reads one app's changes up to an id, in the order they happened", async () => {
      const { store } = await open();
      await load(store);
      const firstId = (await store.savingsChangesAfter(0, 1))[0]!.id;
      const a = expected()
        .filter((c) => c.appId === 'app_a')
        .map((c) => ({ ...c, id: c.id + firstId - 1 }))
        .sort((x, y) => x.at - y.at || x.id - y.id);
      expect(await store.savingsChangesOf('app_a', Number.MAX_SAFE_INTEGER)).toEqual(a);
      expect(await store.savingsChangesOf('app_a', firstId)).toEqual(a.filter((c) => c.id <= firstId));
      expect(await store.savingsChangesOf('app_none', Number.MAX_SAFE_INTEGER)).toEqual([]);
    });

    it('gives the oldest instant and its ids, and follows retention; null when none is left', async () => {
      const { store } = await open();
      expect(await store.savingsOldest()).toBeNull();
      await load(store);
      const ids = (await store.savingsChangesAfter(0, 100))
        .filter((c) => c.at === T + MINUTE)
        .map((c) => c.id);
      expect(ids).toHaveLength(3); // the stop-asked at the same instant is not one
      expect(await store.savingsOldest()).toEqual({ at: T + MINUTE, ids });
      await store.deleteHistoryBefore(T + 3 * MINUTE, 100);
      const left = await store.savingsChangesAfter(0, 100);
      expect(await store.savingsOldest()).toEqual({ at: T + 3 * MINUTE, ids: [left[0]!.id] });
      await store.deleteHistoryBefore(T + 10 * MINUTE, 100);
      expect(await store.savingsOldest()).toBeNull();
    });

    it('tells which history ids are left after retention, of any kind, and none of an empty list', async () => {
      const { store } = await open();
      await load(store);
      const all = (await store.savingsChangesAfter(0, 100)).map((c) => c.id);
      expect(await store.historyIdsLeft(all)).toEqual(new Set(all));
      await store.deleteHistoryBefore(T + 3 * MINUTE, 100);
      const left = (await store.savingsChangesAfter(0, 100)).map((c) => c.id);
      expect(left.length).toBeGreaterThan(0);
      expect(left.length).toBeLessThan(all.length);
      // An id never written, and the deleted ones: not there.
      expect(await store.historyIdsLeft([...all, 999_999])).toEqual(new Set(left));
      expect(await store.historyIdsLeft([])).toEqual(new Set());
    });
  },
);
