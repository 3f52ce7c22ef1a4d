/**
 * The engine's commits on PostgreSQL, grouped: a commit is sent as one statement on one of two
 * lanes; the commits asked for while both lanes are busy (other owners' batches, a sweep's) go
 * together in the next statement, each still fenced by its own lease guard and written or refused
 * whole.
 *
 * Why (issue 21, BENCHMARKS.md section 6): a statement's time on the server is mostly per row, but
 * the first statement of each new connection also pays for loading the catalogues, the triggers'
 * PL/pgSQL and the plans (about five times a warm statement's cost); a first run of ten owners'
 * batches sent at once opened ten connections and spent twice the server time of the same
 * statements on one. Two lanes keep the server's work on two connections, and the grouping keeps
 * one owner's batch from waiting behind the others' one by one.
 *
 * Balance: a free lane takes its half of the changes outstanding (waiting, and under way on the
 * other lane), and the commits asked in one turn of the event loop wait for that turn's end, so
 * that the changes of a sweep's owners are shared by both lanes, not sent as one owner's alone then
 * all the others together on one lane while the other idles (the trace of a 1,000-app sweep in ten
 * owners: 100 rows, then 600 on one lane, 300 on the other).
 *
 * Order: a commit naming an app that a statement under way writes waits for it (and so do the
 * commits after it), so two writes of one app never race on the two lanes.
 *
 * One statement: the guards' lease rows locked FOR SHARE in a CTE (those that hold), each row
 * written only when its commit's guard is among them; history entries in the order asked.
 */
import type pg from 'pg';
import { type LeaseGuard, LeaseLost, type StoreCommit } from '../contract.ts';
import { HISTORY_WRITE_COLUMNS, historyRow } from '../history-rows.ts';
import { COLUMNS } from '../record-columns.ts';
import { DB_NOW } from './pg-schema.ts';

/** Statements of commits at once (each on a connection of its own). */
const LANES = 2;
/** Changes in one statement at most (a group stops before the commit that would pass it). */
const MAX_GROUP_CHANGES = 2000;

const COLS = COLUMNS.map(([, c]) => c);
const UPDATE_SET = COLS.slice(1)
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');
const HISTORY_INSERT = HISTORY_WRITE_COLUMNS.join(', ');
/** A row is written when its fence (its commit's guard, 1-based) is null (unguarded) or held. */
const FENCED = '(fence IS NULL OR fence IN (SELECT n FROM guard))';

/**
 * The statement of a group ($1..$3 the guards, $4/$5 records and their fences, $6/$7 removals,
 * $8/$9 entries): the same text for every group.
 */
const GROUP_SQL = `WITH guard AS (
    SELECT w.n FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS w(owner_id, holder, token, n)
    JOIN leases l ON l.owner_id = w.owner_id AND l.holder = w.holder AND l.token = w.token AND l.expires_at > ${DB_NOW}
    FOR SHARE OF l),
  up AS (INSERT INTO app_state (${COLS.join(', ')})
    SELECT ${COLS.map((c) => `r.${c}`).join(', ')}
    FROM json_populate_recordset(null::app_state, $4::json) WITH ORDINALITY AS r
    JOIN unnest($5::int[]) WITH ORDINALITY AS f(fence, i) ON f.i = r.ordinality
    WHERE ${FENCED}
    ON CONFLICT (app_id) DO UPDATE SET ${UPDATE_SET} RETURNING 1),
  del AS (DELETE FROM app_state WHERE app_id IN (
    SELECT d.app_id FROM unnest($6::text[], $7::int[]) AS d(app_id, fence) WHERE ${FENCED}) RETURNING 1),
  hist AS (INSERT INTO history (${HISTORY_INSERT})
    SELECT ${HISTORY_INSERT.split(', ')
      .map((c) => `e.${c}`)
      .join(', ')}
    FROM json_populate_recordset(null::history, $8::json) WITH ORDINALITY AS e
    JOIN unnest($9::int[]) WITH ORDINALITY AS f(fence, i) ON f.i = e.ordinality
    WHERE ${FENCED}
    ORDER BY e.ordinality
    RETURNING 1)
  SELECT array(SELECT n FROM guard) AS held`;

/**
 * Whether a batch fits one statement: each app written or removed once (an upsert cannot touch a row
 * twice in one statement), and no change both writes and removes. `seen` (the apps of the group
 * already) is filled when it fits.
 */
export function oneStatementFits(list: readonly StoreCommit[], seen = new Set<string>()): boolean {
  const ids: string[] = [];
  for (const c of list) {
    if (c.upsert && c.remove) return false;
    const id = c.upsert?.appId ?? c.remove;
    if (id === undefined) continue;
    if (seen.has(id) || ids.includes(id)) return false;
    ids.push(id);
  }
  for (const id of ids) seen.add(id);
  return true;
}

interface Queued {
  list: readonly StoreCommit[];
  guard: LeaseGuard | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The apps a commit writes or removes. */
const appsOf = (list: readonly StoreCommit[]): string[] =>
  list.flatMap((c) => {
    const id = c.upsert?.appId ?? c.remove;
    return id === undefined ? [] : [id];
  });

const sameGuard = (a: LeaseGuard, b: LeaseGuard) =>
  a.ownerId === b.ownerId && a.holder === b.holder && a.token === b.token;

/** The commits of a store, grouped on two lanes (see above). */
export class CommitLanes {
  private readonly queue: Queued[] = [];
  private busy = 0;
  /** The apps the statements under way write, and their changes. */
  private readonly writing = new Set<string>();
  private underWay = 0;
  private drainAsked = false;
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** Write these changes (they fit one statement: `oneStatementFits`), fenced by `guard`. */
  commit(list: readonly StoreCommit[], guard: LeaseGuard | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ list, guard, resolve, reject });
      if (this.drainAsked) return;
      this.drainAsked = true;
      setImmediate(() => {
        this.drainAsked = false;
        this.drain();
      });
    });
  }

  private drain(): void {
    while (this.busy < LANES && this.queue.length) {
      const group = this.take();
      if (!group.length) return; // the next commit waits for a statement under way
      const apps = group.flatMap((q) => appsOf(q.list));
      const changes = group.reduce((n, q) => n + q.list.length, 0);
      for (const id of apps) this.writing.add(id);
      this.busy++;
      this.underWay += changes;
      const done = (settle: () => void) => {
        this.busy--;
        this.underWay -= changes;
        for (const id of apps) this.writing.delete(id);
        settle();
        this.drain();
      };
      this.send(group).then(
        (held) =>
          done(() => {
            for (const q of group) {
              if (q.guard && !held.some((g) => sameGuard(g, q.guard!))) q.reject(new LeaseLost(q.guard));
              else q.resolve();
            }
          }),
        (error: unknown) =>
          done(() => {
            for (const q of group) q.reject(error);
          }),
      );
    }
  }

  /**
   * The next group: the queue's first commits, in order, until it holds its lane's half of the
   * changes outstanding, or until one names an app already in the group or in a statement under
   * way (it waits, and so do those after it: writes keep their order), or the group is full.
   */
  private take(): Queued[] {
    const waiting = this.queue.reduce((n, q) => n + q.list.length, 0);
    const share = Math.min(MAX_GROUP_CHANGES, Math.max(1, Math.ceil((waiting + this.underWay) / LANES)));
    const seen = new Set(this.writing);
    const group: Queued[] = [];
    let changes = 0;
    while (this.queue.length && changes < share) {
      const next = this.queue[0]!;
      if (group.length && changes + next.list.length > MAX_GROUP_CHANGES) break;
      if (!oneStatementFits(next.list, seen)) break;
      changes += next.list.length;
      group.push(this.queue.shift()!);
    }
    return group;
  }

  /** One statement for the group; the guards that held. */
  private async send(group: readonly Queued[]): Promise<LeaseGuard[]> {
    const guards: LeaseGuard[] = [];
    const records: Record<string, unknown>[] = [];
    const recordFences: (number | null)[] = [];
    const removes: string[] = [];
    const removeFences: (number | null)[] = [];
    const entries: Record<string, unknown>[] = [];
    const entryFences: (number | null)[] = [];
    for (const q of group) {
      let fence: number | null = null;
      if (q.guard) {
        const known = guards.findIndex((g) => sameGuard(g, q.guard!));
        fence = known === -1 ? guards.push(q.guard) : known + 1;
      }
      for (const c of q.list) {
        if (c.upsert) {
          const r = c.upsert;
          records.push(Object.fromEntries(COLUMNS.map(([field, column]) => [column, r[field] ?? null])));
          recordFences.push(fence);
        }
        if (c.remove) {
          removes.push(c.remove);
          removeFences.push(fence);
        }
        for (const h of c.history) {
          entries.push(historyRow(h));
          entryFences.push(fence);
        }
      }
    }
    const { rows } = await this.pool.query<{ held: string[] | number[] }>(GROUP_SQL, [
      guards.map((g) => g.ownerId),
      guards.map((g) => g.holder),
      guards.map((g) => g.token),
      JSON.stringify(records),
      recordFences,
      removes,
      removeFences,
      JSON.stringify(entries),
      entryFences,
    ]);
    const held = new Set((rows[0]?.held ?? []).map(Number));
    return guards.filter((_, i) => held.has(i + 1));
  }
}
