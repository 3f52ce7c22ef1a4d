/**
 * The data folder: readable by its owner only, whoever created it, and used by one reaper at a time.
 *
 * Modes: the folder is 0700 and every file the reaper keeps in it 0600, put back at each start when
 * another tool, an older version or a wide umask left them open (only the reaper's own file names
 * are touched: a folder shared with other files keeps theirs).
 *
 * The lock: an SQLite database (`reaper.lock`) held in exclusive locking mode. SQLite's lock is the
 * operating system's own (fcntl byte-range locks on POSIX, LockFileEx on Windows), so it belongs to
 * the process and the kernel drops it when the process ends in any way, kill -9 included: no stale
 * lock to clean, no pid to guess (a pid file alone can name a reused pid, or a process of another
 * machine on a shared folder). Who holds it is written beside it (`reaper.pid`) for the message only.
 */
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describeError } from '../../shared/log.ts';

export const LOCK_FILE = 'reaper.lock';
export const OWNER_FILE = 'reaper.pid';

/** The names of the files the reaper keeps in its data folder (and their WAL and set-aside copies). */
const OWN_FILES = /^(admin-token|config\.json|credentials\.(json|safe)|reaper\.(sqlite|lock|pid))([.-].*)?$/;

/** The folder to 0700, the reaper's files in it to 0600; what could not be changed, in words. */
export function restrictDataDir(dir: string): string[] {
  const problems: string[] = [];
  const restrict = (path: string, mode: number) => {
    try {
      if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
    } catch (error) {
      problems.push(`${path} could not be made private (${describeError(error)})`);
    }
  };
  restrict(dir, 0o700);
  for (const name of readdirSync(dir)) {
    if (!OWN_FILES.test(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isFile()) restrict(path, 0o600);
  }
  return problems;
}

/** A file to 0600 if it exists (SQLite creates its files with the process's umask). */
export function restrictFile(path: string): void {
  try {
    if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export class DataDirInUseError extends Error {
  readonly dir: string;
  readonly owner: string;
  constructor(dir: string, owner: string) {
    super(
      `The data folder ${dir} is in use by ${owner}: two reapers on one folder would fight over its ` +
        `apps and history. Stop the other one, or give this one another folder (--data-dir).`,
    );
    this.name = 'DataDirInUseError';
    this.dir = dir;
    this.owner = owner;
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

/** Take the data folder for this process, or throw DataDirInUseError naming the one that has it. */
export function lockDataDir(dir: string, now: () => number = Date.now): DataDirLock {
  const file = join(dir, LOCK_FILE);
  const db = new DatabaseSync(file, { timeout: 0 });
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY;');
    // The first write takes the exclusive lock; in exclusive locking mode it is kept until close.
    db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (at INTEGER); DELETE FROM held; COMMIT;');
  } catch (error) {
    db.close();
    if (/locked|busy/i.test(describeError(error))) throw new DataDirInUseError(dir, ownerOf(dir));
    throw error;
  }
  restrictFile(file);
  const owner = join(dir, OWNER_FILE);
  writeFileSync(
    owner,
    `${JSON.stringify({ pid: process.pid, host: hostname(), since: new Date(now()).toISOString() })}\n`,
    { mode: 0o600 },
  );
  restrictFile(owner);
  held.add(db); // kept referenced: a collected handle would close, and let go of the lock
  return {
    file,
    release() {
      if (!held.delete(db)) return;
      db.close();
    },
  };
}

const held = new Set<DatabaseSync>();

function ownerOf(dir: string): string {
  try {
    const o = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Record<string, unknown>;
    return `another Clever Reaper (pid ${o.pid} on ${o.host}, since ${o.since})`;
  } catch {
    return 'another Clever Reaper';
  }
}
