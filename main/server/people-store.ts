/**
 * Where a server keeps its people (tokens, sessions, audit): in team mode the team's PostgreSQL, with
 * the bus telling each instance of a change at once; else people.sqlite of the data folder. Opened by
 * the server before its sessions (a demo has people too), and by `tokens` commands (tokens-cli.ts).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Log } from '../../shared/log.ts';
import type { PeopleStore } from '../store/contract.ts';
import { PgBus } from '../store/postgres/pg-bus.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { openDatastore } from '../store/sqlite/open-sqlite.ts';
import type { SqliteStore } from '../store/sqlite/sqlite-store.ts';
import type { Auditor } from './audited.ts';
import { People, type PeopleChanges } from './people.ts';

export const PEOPLE_FILE = 'people.sqlite';

export interface OpenedPeople {
  people: People;
  store: PeopleStore;
  audit: Auditor;
  close(): Promise<void>;
}

/** The people store alone (the `tokens` commands): no bus. */
export async function openPeopleStore(
  dataDir: string,
  database: string | null,
): Promise<{ store: PeopleStore; close(): Promise<void>; postgres: PostgresStore | null }> {
  if (database) {
    const pg = await PostgresStore.open(database, { max: 1 });
    return { store: pg.people(), close: () => pg.close(), postgres: pg };
  }
  // Opened at its first use: a server nobody signs in to with a personal token leaves no file.
  let opened: SqliteStore | null = null;
  let people: PeopleStore | null = null;
  const get = (): PeopleStore => {
    if (people) return people;
    const o = openDatastore(join(dataDir, PEOPLE_FILE));
    if (o.problem) {
      if (o.store.db.isOpen) o.store.db.close();
      throw new Error(`the people store cannot be used: ${o.problem}`);
    }
    opened = o.store;
    people = o.store.people();
    return people;
  };
  const store = Object.fromEntries(
    PEOPLE_CALLS.map((name) => [
      name,
      async (...args: unknown[]) => (get()[name] as (...a: unknown[]) => Promise<unknown>)(...args),
    ]),
  ) as unknown as PeopleStore;
  return { store, close: async () => opened?.close(), postgres: null };
}

/** Every call of PeopleStore (a lazily opened store forwards each). */
const PEOPLE_CALLS = [
  'addToken',
  'tokenById',
  'tokens',
  'revokeToken',
  'addSession',
  'session',
  'endSession',
  'addAudit',
  'audit',
] as const satisfies readonly (keyof PeopleStore)[];

export async function openPeople(options: {
  dataDir: string;
  database: string | null;
  bootstrap: string;
  log?: Log;
}): Promise<OpenedPeople> {
  const { store, close, postgres } = await openPeopleStore(options.dataDir, options.database);
  let bus: PgBus | null = null;
  let changes: PeopleChanges | undefined;
  if (postgres) {
    try {
      bus = await PgBus.start({
        store: postgres,
        instanceId: `people-${process.pid}-${randomBytes(3).toString('hex')}`,
        // Not an engine's bus: tests and operators count those by their name.
        applicationName: 'clever-reaper people',
        ...(options.log ? { log: options.log } : {}),
      });
    } catch (error) {
      await close();
      throw error;
    }
    const b = bus;
    changes = {
      subscribe: (listener) =>
        b.subscribe((m) => (m.kind === 'people' || m.kind === 'connected' ? listener() : undefined)),
      get listening() {
        return b.listening;
      },
    };
  }
  const people = new People({
    store,
    bootstrap: options.bootstrap,
    ...(changes ? { changes } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const audit: Auditor = (who, what, target, before, after) =>
    store.addAudit({ at: Date.now(), by: who.name, via: who.via, what, target, before, after });
  return {
    people,
    store,
    audit,
    async close() {
      people.close();
      await bus?.close();
      await close();
    },
  };
}
