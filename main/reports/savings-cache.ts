/**
 * What the savings report needs of the history, kept in memory per datastore so that a report does
 * not read all of it each time: per app, its Asleep (Down) stretches with whose sleep each was
 * (savings-sleeps.ts's rules), the dry-run "would stop" notes with the instant of the entry after
 * each, and its oldest entry. Stretches stay instants (not days): the report cuts them into days in
 * any zone, and at any `now`.
 *
 * Built once from the history, read by id in slices with a turn of the event loop between them (a
 * SQLite read is synchronous: no slice holds the loop long), then kept up to date by reading only the
 * entries after the last id seen. What such a read misses is caught apart:
 * - an entry of an app older than the app's last one (a clock going back, a commit arriving late):
 *   that app is read again, alone, from the datastore;
 * - PostgreSQL ids committing out of order: the last TAIL ids are read again each time, and those
 *   already applied skipped;
 * - retention deleting the oldest entries (any instance's): each app's oldest entries are looked up
 *   by id, and the apps that lost one are read again (retention deletes the oldest first); then the
 *   oldest instant and the ids at it are compared with the datastore's, everything read again when
 *   they differ (entries this cache never saw).
 * Entries at negative instants are left out, as the report's reads do. In team mode each instance
 * has its own cache; each is kept right by these same reads.
 */
import type { ReaperState } from '../../shared/domain.ts';
import type { ReaperStore, SavingsOldest, StateChange } from '../store/contract.ts';
import { WOULD_STOP_PREFIX } from './savings.ts';
import type { SleepCause } from './savings-sleeps.ts';

export type SavingsStore = Pick<
  ReaperStore,
  'kind' | 'savingsChangesAfter' | 'savingsChangesOf' | 'savingsOldest' | 'historyIdsLeft'
>;

/** A stretch Asleep, from the state change that began it to the next one (Infinity: not yet). */
export interface Piece {
  start: number;
  end: number;
  cause: SleepCause;
}

/** A dry-run "would stop" note and the instant of the app's next entry (Infinity: none yet). */
export interface Note {
  at: number;
  next: number;
}

export interface AppSleepHistory {
  pieces: Piece[];
  notes: Note[];
  /** The app's oldest entry: its instant, and the ids of its entries at that instant (by id). */
  oldestAt: number;
  oldestIds: number[];
  // The end of what was applied, to go on from it.
  lastAt: number;
  lastId: number;
  state: ReaperState | null;
  cause: SleepCause | null;
}

/** Rows per read when building. */
const SLICE = 5_000;
/** PostgreSQL: how many of the last ids are read again, for commits that land out of id order. */
const PG_TAIL = 5_000;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function emptyApp(): AppSleepHistory {
  return {
    pieces: [],
    notes: [],
    oldestAt: Infinity,
    oldestIds: [],
    lastAt: -Infinity,
    lastId: -Infinity,
    state: null,
    cause: null,
  };
}

/** Whether `c` comes after what `app` has applied (time, then id). */
const isAfter = (app: AppSleepHistory, c: StateChange) =>
  c.at > app.lastAt || (c.at === app.lastAt && c.id > app.lastId);

/** Apply one entry that comes after all those applied (sleepsOf's and projectedIntervals' rules). */
function apply(app: AppSleepHistory, c: StateChange): void {
  if (c.at < app.oldestAt) {
    app.oldestAt = c.at;
    app.oldestIds = [c.id];
  } else if (c.at === app.oldestAt) app.oldestIds.push(c.id);
  app.lastAt = c.at;
  app.lastId = c.id;
  const note = app.notes.at(-1);
  if (note && note.next === Infinity) note.next = c.at;
  if (c.kind === 'would-sleep' && c.reason.startsWith(WOULD_STOP_PREFIX)) {
    app.notes.push({ at: c.at, next: Infinity });
  }
  if (c.kind !== 'transition' && c.kind !== 'reset' && c.kind !== 'release') return;
  if (app.state === 'Down') app.pieces.at(-1)!.end = c.at;
  app.state = c.to;
  if (app.state === 'WaitingForShutdown') app.cause = c.actor === 'outside' ? 'outside' : 'reaper';
  else if (app.state === 'Up' || app.state === null) app.cause = null;
  else if (app.state === 'Down') app.cause ??= 'outside';
  if (app.state === 'Down') app.pieces.push({ start: c.at, end: Infinity, cause: app.cause ?? 'outside' });
}

/** An app's sleep history from all its entries, in the order they happened. */
export function appSleepHistory(changes: readonly StateChange[]): AppSleepHistory {
  const app = emptyApp();
  for (const c of changes) apply(app, c);
  return app;
}

export class SavingsCache {
  private readonly store: SavingsStore;
  private readonly tail: number;
  private apps = new Map<string, AppSleepHistory>();
  /** The highest id read. */
  private lastId = 0;
  /** Ids above lastId - tail already applied (PostgreSQL's re-read tail). */
  private seen = new Set<number>();
  private built = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(store: SavingsStore) {
    this.store = store;
    this.tail = store.kind === 'postgres' ? PG_TAIL : 0;
  }

  /** Brought up to date with the datastore, then each app's sleep history (not to be changed). */
  read(): Promise<ReadonlyMap<string, AppSleepHistory>> {
    const run = this.queue.then(async () => {
      try {
        await this.refresh();
      } catch (error) {
        this.built = false; // half applied: built again next time
        throw error;
      }
      return this.apps as ReadonlyMap<string, AppSleepHistory>;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private reset(): void {
    this.apps = new Map();
    this.lastId = 0;
    this.seen = new Set();
    this.built = true;
  }

  private async refresh(): Promise<void> {
    if (!this.built) this.reset();
    await this.catchUp();
    // Retention deletes the oldest entries first: an app that lost some lost one of its oldest, and is
    // read again. (The datastore's oldest instant alone does not tell: an entry committed late, with an
    // old instant, can hide a deletion behind it.)
    const oldest = [...this.apps].flatMap(([appId, a]) => a.oldestIds.map((id) => [id, appId] as const));
    if (oldest.length) {
      const left = await this.store.historyIdsLeft(oldest.map(([id]) => id));
      await this.reread([...new Set(oldest.filter(([id]) => !left.has(id)).map(([, appId]) => appId))]);
    }
    if (this.holdsOldest(await this.store.savingsOldest())) return;
    // Older entries this cache never saw: all of it again.
    this.reset();
    await this.catchUp();
  }

  /** Read the entries after the last id (the tail again on PostgreSQL), a slice at a time. */
  private async catchUp(): Promise<void> {
    let after = Math.max(0, this.lastId - this.tail);
    const stale = new Set<string>();
    for (;;) {
      const rows = await this.store.savingsChangesAfter(after, SLICE);
      for (const c of rows) {
        if (c.id <= this.lastId && this.seen.has(c.id)) continue;
        if (this.tail) this.seen.add(c.id);
        if (c.id > this.lastId) this.lastId = c.id;
        if (stale.has(c.appId)) continue;
        let app = this.apps.get(c.appId);
        if (!app) {
          app = emptyApp();
          this.apps.set(c.appId, app);
        }
        if (isAfter(app, c)) apply(app, c);
        else stale.add(c.appId);
      }
      if (rows.length < SLICE) break;
      after = rows.at(-1)!.id;
      await yieldToLoop();
    }
    await this.reread([...stale]);
    if (this.tail) for (const id of this.seen) if (id <= this.lastId - this.tail) this.seen.delete(id);
  }

  /** Read these apps again from the datastore, one at a time, up to the last id read. */
  private async reread(appIds: readonly string[]): Promise<void> {
    for (const appId of appIds) {
      const changes = await this.store.savingsChangesOf(appId, this.lastId);
      if (changes.length) this.apps.set(appId, appSleepHistory(changes));
      else this.apps.delete(appId);
      if (this.tail) for (const c of changes) if (c.id > this.lastId - this.tail) this.seen.add(c.id);
      await yieldToLoop();
    }
  }

  /** The oldest instant applied, and the ids at it, by id. */
  private oldest(): { at: number; ids: number[] } {
    let at = Infinity;
    let ids: number[] = [];
    for (const app of this.apps.values()) {
      if (app.oldestAt < at) {
        at = app.oldestAt;
        ids = [...app.oldestIds];
      } else if (app.oldestAt === at) ids.push(...app.oldestIds);
    }
    return { at, ids: ids.sort((a, b) => a - b) };
  }

  /** Whether the oldest entries applied are the datastore's. */
  private holdsOldest(theirs: SavingsOldest | null): boolean {
    if (theirs === null) return this.apps.size === 0;
    const mine = this.oldest();
    return (
      theirs.at === mine.at &&
      theirs.ids.length === mine.ids.length &&
      theirs.ids.every((id, i) => id === mine.ids[i])
    );
  }
}

const caches = new WeakMap<SavingsStore, SavingsCache>();

/** The cache of this datastore (one per datastore object, for the life of the process). */
export function savingsCacheOf(store: SavingsStore): SavingsCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new SavingsCache(store);
    caches.set(store, cache);
  }
  return cache;
}
