/**
 * Opening the datastore without ever crash-looping on it:
 * - a corrupt or truncated file is kept aside (renamed with its WAL files, never deleted) and a new
 *   one started: app states are read again from Clever Cloud, the old history stays in the kept file;
 * - a file of 0 bytes (truncated, or emptied by a restore gone wrong) opens as a new datastore, and
 *   says so: its history is gone, only a backup has it;
 * - a file that cannot be opened or written (unwritable folder, read-only mount, full disk: a write is
 *   tried at open) leaves the reaper running
 *   on an in-memory datastore, with the reason, so the dashboard and the logs can say it loudly.
 */
import { existsSync, renameSync, statSync } from 'node:fs';
import { describeError } from '../../../shared/log.ts';
import { SqliteStore } from './sqlite-store.ts';

export interface OpenedDatastore {
  store: SqliteStore;
  /** What went wrong and what was done about it, for the dashboard and the logs; null when all is well. */
  problem: string | null;
}

const CORRUPT = new Set([11, 26]); // SQLITE_CORRUPT, SQLITE_NOTADB

function sqliteCode(error: unknown): number | null {
  const code = (error as { errcode?: unknown })?.errcode;
  return typeof code === 'number' ? code & 0xff : null;
}

function check(store: SqliteStore): void {
  const rows = store.db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length) {
    throw Object.assign(new Error(`the datastore is damaged: ${problems.slice(0, 3).join('; ')}`), {
      errcode: 11,
    });
  }
  // Every record read, as loadRecords reads them, here on the handle: a damaged table throws now.
  store.db.prepare('SELECT * FROM app_state').all();
  // A file that opens and reads may still refuse writes: a read-only mount that holds the -wal and
  // -shm files of a crash opens without a word. Write the schema version back (a real write
  // transaction, same value) so that such a place is found now, not at the first decision.
  const { user_version: version } = store.db.prepare('PRAGMA user_version').get() as { user_version: number };
  store.db.exec(`PRAGMA user_version = ${version}`);
}

export function openDatastore(file: string, now: () => number = Date.now): OpenedDatastore {
  let store: SqliteStore | null = null;
  try {
    const empty = file !== ':memory:' && existsSync(file) && statSync(file).size === 0;
    store = new SqliteStore(file);
    check(store);
    return {
      store,
      problem: empty
        ? `The datastore ${file} was empty (0 bytes): it was truncated, or a start was cut short before its first write. A new one was started: every app is read again from Clever Cloud; its earlier history is gone unless a backup has it.`
        : null,
    };
  } catch (error) {
    // Closed at once on the handle (the file may be moved aside next), not by the contract's close().
    if (store?.db.isOpen) store.db.close();
    if (CORRUPT.has(sqliteCode(error) ?? -1) && existsSync(file)) {
      const aside = `${file}.corrupt-${new Date(now()).toISOString().replace(/[:.]/g, '-')}`;
      try {
        renameSync(file, aside);
        for (const suffix of ['-wal', '-shm'])
          if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
        const fresh = new SqliteStore(file);
        return {
          store: fresh,
          problem: `The datastore was damaged (${describeError(error)}). It was kept aside as ${aside} and a new one started: every app is read again from Clever Cloud; the earlier history is in the kept file.`,
        };
      } catch (second) {
        return inMemory(file, second);
      }
    }
    return inMemory(file, error);
  }
}

function inMemory(file: string, error: unknown): OpenedDatastore {
  return {
    store: new SqliteStore(':memory:'),
    problem: `The datastore ${file} cannot be used (${describeError(error)}). The reaper runs without saving: app states and history will be lost when it stops. Free some space or fix the folder's permissions, then restart.`,
  };
}
