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
  const opened = openDatastore(join(dataDir, PEOPLE_FILE));
  if (opened.problem) throw new Error(`the people store cannot be used: ${opened.problem}`);
  return { store: opened.store.people(), close: () => opened.store.close(), postgres: null };
}

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
