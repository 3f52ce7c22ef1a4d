import { describe, expect, it } from 'vitest';
import { type AppRecord, CAUSES, newRecord } from '../../../shared/domain.ts';
import { HOUR, MINUTE } from '../../../shared/durations.ts';
import { CAUSE_FILTERS, type HistoryQuery, historyQuerySchema } from '../../../shared/history.ts';
import { historyEntry } from '../../testing/fixtures.ts';
import { appNames, queryHistory, stateChanges } from './sqlite-history.ts';
import { SqliteStore } from './sqlite-store.ts';

const T = Date.UTC(2026, 0, 5, 9);

function record(appId: string, name: string): AppRecord {
  return newRecord(appId, 'orga_acme', name, T);
}

/** Two apps with a day of history each; `shop` is released at the end (its name must stay). */
async function fixture() {
  const store = new SqliteStore(':memory:');
  await store.commit({ upsert: record('app_review', 'idle-review'), history: [] });
  await store.commit({ upsert: record('app_shop', 'shop-staging'), history: [] });
  await store.commit({
    history: [
      historyEntry('app_review', T, {
        from: null,
        to: 'WaitingForInit',
        actor: 'operator',
        reason: 'put under the reaper by a route',
      }),
      historyEntry('app_review', T + MINUTE, {
        from: 'WaitingForInit',
        to: 'Up',
        reason: 'Clever Cloud says SHOULD_BE_UP',
      }),
      historyEntry('app_review', T + HOUR, {
        reason: 'no traffic for 1 h (grace period 1 h), last deployment OK',
      }),
      historyEntry('app_review', T + HOUR, {
        kind: 'stop-asked',
        from: null,
        to: null,
        reason: 'Clever Cloud accepted the stop',
      }),
      historyEntry('app_review', T + HOUR + MINUTE, {
        from: 'WaitingForShutdown',
        to: 'Down',
        reason: 'Clever Cloud says SHOULD_BE_DOWN',
      }),
      historyEntry('app_shop', T + 2 * HOUR, {
        from: 'Down',
        to: 'WaitingForUp',
        actor: 'request',
        reason: 'asked for by wake-proxy',
      }),
      historyEntry('app_shop', T + 2 * HOUR + MINUTE, {
        from: 'WaitingForUp',
        to: 'Error',
        reason: CAUSES.startFailed,
      }),
      historyEntry('app_shop', T + 3 * HOUR, {
        kind: 'reset',
        from: 'Error',
        to: 'WaitingForInit',
        actor: 'operator',
        reason: 'reset from the console',
      }),
      historyEntry('app_shop', T + 3 * HOUR + MINUTE, {
        from: 'WaitingForInit',
        to: 'Error',
        reason: CAUSES.unsafeLastDeployment('FAIL'),
      }),
    ],
  });
  await store.commit({
    remove: 'app_shop',
    history: [
      historyEntry('app_shop', T + 4 * HOUR, {
        kind: 'release',
        from: 'Error',
        to: null,
        actor: 'operator',
        reason: 'the reaper was disabled from the console',
      }),
    ],
  });
  return store;
}

const q = (input: Record<string, unknown>): HistoryQuery => historyQuerySchema.parse(input);

describe('the history across apps', () => {
  it('lists every app newest first, with the app names, a released app included', async () => {
    const store = await fixture();
    const page = queryHistory(store.db, q({}));
    expect(page.entries.map((e) => e.at)).toEqual([...page.entries.map((e) => e.at)].sort((a, b) => b - a));
    expect(page.entries[0]).toMatchObject({
      appId: 'app_shop',
      appName: 'shop-staging',
      kind: 'release',
      to: null,
    });
    expect(new Set(page.entries.map((e) => e.appName))).toEqual(new Set(['idle-review', 'shop-staging']));
    expect(appNames(store.db).get('app_shop')).toEqual({ name: 'shop-staging', ownerId: 'orga_acme' });
  });

  it('keeps the latest name of an app renamed on Clever Cloud', async () => {
    const store = await fixture();
    await store.commit({ upsert: record('app_review', 'review-42'), history: [] });
    const page = queryHistory(store.db, q({ appId: 'app_review', limit: 1 }));
    expect(page.entries[0]!.appName).toBe('review-42');
  });

  it('filters by app, by state (into or out of it), by actor, by kind and by time range', async () => {
    const store = await fixture();
    expect(queryHistory(store.db, q({ appId: 'app_review' })).entries).toHaveLength(5);
    const down = queryHistory(store.db, q({ state: 'Down' })).entries;
    expect(down.map((e) => `${e.from}->${e.to}`)).toEqual(['Down->WaitingForUp', 'WaitingForShutdown->Down']);
    const shutdown = queryHistory(store.db, q({ state: 'WaitingForShutdown' })).entries;
    expect(shutdown.map((e) => `${e.from}->${e.to}`)).toEqual([
      'WaitingForShutdown->Down',
      'Up->WaitingForShutdown',
    ]);
    expect(queryHistory(store.db, q({ actor: 'request' })).entries.map((e) => e.reason)).toEqual([
      'asked for by wake-proxy',
    ]);
    expect(queryHistory(store.db, q({ kind: 'reset' })).entries).toHaveLength(1);
    const window = queryHistory(
      store.db,
      q({ from: T + HOUR, to: new Date(T + 2 * HOUR + MINUTE).toISOString() }),
    );
    expect(window.entries.map((e) => e.at)).toEqual([T + 2 * HOUR, T + HOUR + MINUTE, T + HOUR, T + HOUR]);
  });

  it('filters by cause: transitions into Error whose reason starts with it, the templated causes too', async () => {
    const store = await fixture();
    const failed = queryHistory(store.db, q({ cause: CAUSES.startFailed })).entries;
    expect(failed.map((e) => e.reason)).toEqual([CAUSES.startFailed]);
    const unsafe = CAUSE_FILTERS.find((c) => c.label === 'unsafe last deployment')!;
    expect(queryHistory(store.db, q({ cause: unsafe.prefix })).entries.map((e) => e.reason)).toEqual([
      CAUSES.unsafeLastDeployment('FAIL'),
    ]);
    // LIKE wildcards in the filter match themselves only.
    expect(queryHistory(store.db, q({ cause: '%' })).entries).toEqual([]);
  });

  it('pages by (time, id), newest first: no entry twice or missed, ties on the same millisecond included', async () => {
    const store = await fixture();
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = queryHistory(store.db, q({ limit: 2, ...(cursor ? { cursor } : {}) }));
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    const all = queryHistory(store.db, q({ limit: 500 })).entries.map((e) => e.id);
    expect(seen).toEqual(all);
    expect(all).toHaveLength(10);
    expect(pages).toBe(5);
  });

  it('rejects a cursor it did not give, and a limit beyond 500', () => {
    expect(historyQuerySchema.safeParse({ cursor: 'abc' }).success).toBe(false);
    expect(historyQuerySchema.safeParse({ limit: '501' }).success).toBe(false);
    expect(historyQuerySchema.parse({ limit: '20' }).limit).toBe(20);
  });

  it('uses an index for each filter (no full scan of the history)', async () => {
    const store = await fixture();
    const plan = (where: string, ...params: (string | number)[]) =>
      (
        store.db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT * FROM history h LEFT JOIN app_names n ON n.app_id = h.app_id WHERE ${where} ORDER BY at DESC, id DESC`,
          )
          .all(...params) as { detail: string }[]
      )
        .map((r) => r.detail)
        .join(' / ');
    expect(plan('h.kind = ?', 'reset')).toMatch(/USING (COVERING )?INDEX history_kind_at/);
    expect(plan('h.actor = ?', 'operator')).toMatch(/USING (COVERING )?INDEX history_actor_at/);
    expect(plan('h.app_id = ?', 'app_shop')).toMatch(/USING (COVERING )?INDEX history_app_at/);
    expect(plan('(h.to_state = ? OR h.from_state = ?)', 'Down', 'Down')).toMatch(
      /history_to_at.*history_from_at/,
    );
  });

  it("gives the savings each app's state when a window starts and its changes after", async () => {
    const store = await fixture();
    const { initial, changes } = stateChanges(store.db, T + 30 * MINUTE, T + 5 * HOUR);
    expect(initial.get('app_review')).toBe('Up');
    expect(initial.has('app_shop')).toBe(false);
    expect(changes.filter((c) => c.appId === 'app_review').map((c) => c.to)).toEqual([
      'WaitingForShutdown',
      'Down',
    ]);
    expect(changes.filter((c) => c.appId === 'app_shop').at(-1)).toMatchObject({ kind: 'release', to: null });
  });
});
