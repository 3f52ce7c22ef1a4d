/**
 * Commits grouped on PostgreSQL (pg-commit.ts): the commits asked for while the lanes are busy go in
 * one statement, each fenced by its own lease guard and written or refused whole, in the order
 * asked; a commit naming an app already in the group waits for the next statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HistoryEntry, newRecord } from '../../../shared/domain.ts';
import { type LeaseGuard, LeaseLost, type StoreCommit } from '../../../shared/port-errors.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../../testing/postgres-cluster.ts';
import { PostgresStore } from './pg-store.ts';

const skip = postgresSkipReason();
const T = Date.UTC(2026, 0, 5, 9);

const entry = (appId: string, reason: string): HistoryEntry => ({
  appId,
  at: T,
  kind: 'transition',
  from: null,
  to: null,
  actor: 'reaper',
  reason,
});

/** Count the statements the store's pool sends from now on (each query checks a connection out). */
function statements(store: PostgresStore): () => number {
  let n = 0;
  store.pool.on('acquire', () => n++);
  return () => n;
}

describe.skipIf(skip !== null)(`grouped commits on PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  let store: PostgresStore;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    store = await PostgresStore.open(await cluster.createDatabase());
    // Owners o1..o8 held by 'me' with token 1 until far ahead; o9's lease expired a minute ago.
    await store.pool.query(
      `INSERT INTO leases (owner_id, holder, token, expires_at)
       SELECT 'o' || i, 'me', 1, 9000000000000 FROM generate_series(1, 8) AS i
       UNION ALL SELECT 'o9', 'me', 1, (extract(epoch FROM clock_timestamp()) * 1000)::bigint - 60000`,
    );
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
  });

  it('fences each commit of a group by its own guard: the held ones written, the others refused whole', async () => {
    const guard = (owner: string, token = 1): LeaseGuard => ({ ownerId: owner, holder: 'me', token });
    // Each owner's batch: two apps, an entry each; o3's token is stale, o5's holder is another, o9's
    // lease expired; 'ox' commits without a guard (single-instance use).
    const batch = (owner: string): StoreCommit[] =>
      [1, 2].map((k) => ({
        upsert: newRecord(`${owner}_app${k}`, owner, `${owner}-${k}`, T),
        history: [entry(`${owner}_app${k}`, `${owner}.${k}`)],
      }));
    const asked: { owner: string; guard: LeaseGuard | undefined }[] = [
      { owner: 'o1', guard: guard('o1') },
      { owner: 'o2', guard: guard('o2') },
      { owner: 'o3', guard: guard('o3', 0) },
      { owner: 'o4', guard: guard('o4') },
      { owner: 'o5', guard: { ownerId: 'o5', holder: 'other', token: 1 } },
      { owner: 'ox', guard: undefined },
      { owner: 'o6', guard: guard('o6') },
      { owner: 'o9', guard: guard('o9') },
      { owner: 'o7', guard: guard('o7') },
    ];
    const sent = statements(store);
    // All asked at once, as a first run's owners' batches are.
    const outcomes = await Promise.allSettled(asked.map((a) => store.commit(batch(a.owner), a.guard)));
    // Asked in one turn, 18 changes: the first lane takes its half and the commit that reaches it
    // (o1 to o5), the second the rest (ox, o6, o9, o7).
    expect(sent()).toBe(2);
    const refused = ['o3', 'o5', 'o9'];
    asked.forEach((a, i) => {
      const outcome = outcomes[i]!;
      if (refused.includes(a.owner)) {
        expect(outcome.status).toBe('rejected');
        const reason = (outcome as PromiseRejectedResult).reason as LeaseLost;
        expect(reason).toBeInstanceOf(LeaseLost);
        expect(reason.guard).toEqual(a.guard);
      } else {
        expect(outcome.status).toBe('fulfilled');
      }
    });
    const written = asked.filter((a) => !refused.includes(a.owner)).map((a) => a.owner);
    expect((await store.loadRecords()).map((r) => r.appId)).toEqual(
      written.flatMap((o) => [`${o}_app1`, `${o}_app2`]).sort(),
    );
    // The entries of the group's commits in the order asked (the two lanes' statements run side by
    // side, as different owners' always did: their order against the group's is the server's).
    const reasons = (await store.historySince(T)).map((h) => h.reason);
    expect([...reasons].sort()).toEqual(written.flatMap((o) => [`${o}.1`, `${o}.2`]).sort());
    for (const statement of [written.slice(0, 3), written.slice(3)]) {
      const grouped = statement.flatMap((o) => [`${o}.1`, `${o}.2`]);
      expect(reasons.filter((r) => grouped.includes(r))).toEqual(grouped);
    }
  });

  it('sends a commit naming an app already in the group in the next statement: the later write wins', async () => {
    const g = { ownerId: 'o8', holder: 'me', token: 1 };
    const write = (name: string, reason: string) =>
      store.commit({ upsert: newRecord('same', 'o8', name, T), history: [entry('same', reason)] }, g);
    const other = (k: number) =>
      store.commit({ upsert: newRecord(`o8_other${k}`, 'o8', 'other', T), history: [] }, g);
    const sent = statements(store);
    // The first lane takes its half (the two others), the second 'first'; 'second' names the app
    // 'first' writes: it waits for that statement to end, then goes in one of its own.
    await Promise.all([other(1), other(2), write('first', 'same.1'), write('second', 'same.2')]);
    expect(sent()).toBe(3);
    const same = (await store.recordsOf(['same']))[0]!;
    expect(same.name).toBe('second');
    expect((await store.historyOf('same')).map((h) => h.reason)).toEqual(['same.2', 'same.1']);
  });

  it('refuses every commit of a statement that fails, and writes none of them', async () => {
    const g = { ownerId: 'o8', holder: 'me', token: 1 };
    const fine = (id: string) => store.commit({ upsert: newRecord(id, 'o8', id, T), history: [] }, g);
    // A record without a name breaks the statement (NOT NULL) it is grouped in.
    const broken = { ...newRecord('broken', 'o8', 'x', T), name: null as unknown as string };
    const outcomes = await Promise.allSettled([
      fine('lane1'),
      fine('lane2'),
      store.commit({ upsert: broken, history: [] }, g),
      fine('grouped'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toMatch(/null value in column "name"/);
    expect((await store.recordsOf(['lane1', 'lane2', 'broken', 'grouped'])).map((r) => r.appId)).toEqual([
      'lane1',
      'lane2',
    ]);
  });

  it("shares a sweep's owners' changes between the two lanes, asked at once or while a lane is busy", async () => {
    const sizes: number[] = [];
    const query = store.pool.query.bind(store.pool) as (...args: unknown[]) => unknown;
    (store.pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const values = args[1] as unknown[] | undefined;
      if (typeof args[0] === 'string' && args[0].startsWith('WITH guard')) {
        sizes.push((JSON.parse(values![3] as string) as unknown[]).length);
      }
      return query(...args);
    };
    const g = { ownerId: 'o8', holder: 'me', token: 1 };
    // Ten owners' batches of ten apps (all under o8's lease here: the balance is by changes).
    const batch = (sweep: string, k: number): StoreCommit[] =>
      Array.from({ length: 10 }, (_, i) => ({
        upsert: newRecord(`${sweep}_${k}_${i}`, 'o8', `${sweep}-${k}-${i}`, T),
        history: [],
      }));
    try {
      await Promise.all(Array.from({ length: 10 }, (_, k) => store.commit(batch('once', k), g)));
      // Asked in one turn: half on each lane.
      expect(sizes).toEqual([50, 50]);
      sizes.length = 0;
      // The first owner's batch alone, then the nine others while it is under way: the free lane
      // takes its half of the 100 outstanding (50), the first lane the rest once free.
      const first = store.commit(batch('later', 0), g);
      await new Promise((r) => setImmediate(r));
      await Promise.all([
        first,
        ...Array.from({ length: 9 }, (_, k) => store.commit(batch('later', k + 1), g)),
      ]);
      expect(sizes[0]).toBe(10);
      expect(sizes[1]).toBe(50);
      expect(sizes.slice(2).reduce((a, b) => a + b, 0)).toBe(40);
      expect(Math.max(...sizes)).toBe(50);
      expect(await store.recordsOf(['once_9_9', 'later_9_9'])).toHaveLength(2);
    } finally {
      (store.pool as unknown as { query: unknown }).query = query;
    }
  });
});
