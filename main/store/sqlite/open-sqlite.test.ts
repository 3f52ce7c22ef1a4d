import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newRecord } from '../../../shared/domain.ts';
import { MINUTE, SECOND } from '../../../shared/durations.ts';
import { harness } from '../../testing/engine-harness.ts';
import { openDatastore } from './open-sqlite.ts';
import { SqliteStore } from './sqlite-store.ts';

const dirs: string[] = [];
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'reaper-open-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const NOW = Date.UTC(2026, 10, 29, 12);

describe('opening the datastore', () => {
  it('a healthy file opens with no problem', async () => {
    const file = join(dir(), 'reaper.db');
    const { store, problem } = openDatastore(file);
    expect(problem).toBeNull();
    await store.close();
  });

  it('a file that is not a database is kept aside, untouched, and a new one started', async () => {
    const file = join(dir(), 'reaper.db');
    writeFileSync(file, 'not a database '.repeat(500));
    const { store, problem } = openDatastore(file, () => NOW);
    const aside = `${file}.corrupt-2026-11-29T12-00-00-000Z`;
    expect(problem).toContain(`kept aside as ${aside}`);
    expect(readFileSync(aside, 'utf8')).toMatch(/^not a database/);
    expect(await store.loadRecords()).toEqual([]);
    await store.commit({ upsert: newRecord('app_1', 'orga_1', 'x', NOW), history: [] });
    await store.close();
    expect(openDatastore(file).problem).toBeNull();
  });

  it('a truncated file is kept aside and a new one started', async () => {
    const file = join(dir(), 'reaper.db');
    const original = new SqliteStore(file);
    for (let i = 0; i < 300; i++) {
      await original.commit({
        upsert: newRecord(`app_${i}`, 'orga_1', `app number ${i}`.repeat(20), NOW),
        history: [
          {
            appId: `app_${i}`,
            at: NOW,
            kind: 'transition',
            from: null,
            to: 'WaitingForInit',
            actor: 'operator',
            reason: 'r'.repeat(200),
          },
        ],
      });
    }
    original.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    await original.close();
    truncateSync(file, Math.floor(statSync(file).size / 3));
    const { store, problem } = openDatastore(file, () => NOW);
    expect(problem).toMatch(/^The datastore was damaged/);
    expect(existsSync(`${file}.corrupt-2026-11-29T12-00-00-000Z`)).toBe(true);
    expect(await store.loadRecords()).toEqual([]);
    await store.close();
  });

  it('a place that cannot be written leaves the reaper running without saving, and says why', async () => {
    const blocker = join(dir(), 'a-file');
    writeFileSync(blocker, '');
    const { store, problem } = openDatastore(join(blocker, 'reaper.db'));
    expect(problem).toMatch(/cannot be used \(.+\)\. The reaper runs without saving/);
    expect(store.file).toBe(':memory:');
    await store.close();
  });
});

describe('a full disk while running', () => {
  it('no decision is carried out unwritten; the problem is announced, then cleared when writes work again', async () => {
    const file = join(dir(), 'reaper.db');
    const store = new SqliteStore(file);
    const h = harness({ store });
    const app = h.manage('idle', {}, { gracePeriodMs: 2 * MINUTE });
    const problems: (string | null)[] = [];
    h.engine.on((e) => e.type === 'storage' && problems.push(e.problem));
    await h.engine.start();
    await h.clock.advance(10 * SECOND);
    expect(h.state(app.id)).toBe('Up');
    const pages = (store.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    store.db.exec(`PRAGMA max_page_count = ${pages}`);
    // Fill every free byte: rows of shrinking size until even the smallest no longer fits.
    for (const size of [2000, 500, 100, 20, 1]) {
      for (let i = 0; i < 500; i++) {
        try {
          store.db.exec(
            `INSERT INTO history (app_id, at, kind, actor, reason) VALUES ('f', 0, 'x', 'x', '${'x'.repeat(size)}')`,
          );
        } catch {
          break;
        }
      }
    }
    await h.clock.advance(10 * MINUTE);
    expect(problems[0]).toMatch(/^the datastore refused a write: database or disk is full/);
    expect(h.state(app.id)).toBe('Up');
    expect(h.port.calls.get('stopApplication') ?? 0).toBe(0);
    store.db.exec('PRAGMA max_page_count = 1073741823');
    await h.clock.advance(MINUTE);
    expect(problems.at(-1)).toBeNull();
    expect(h.state(app.id)).not.toBe('Up');
    expect(h.port.calls.get('stopApplication')).toBe(1);
    await h.engine.stop();
    await store.close();
  });
});

describe('a datastore file of 0 bytes', () => {
  it('opens as a new datastore and says the history is gone', async () => {
    const file = join(dir(), 'reaper.sqlite');
    const first = new SqliteStore(file);
    await first.commit({ upsert: newRecord('app_a', 'orga_a', 'a', NOW), history: [] });
    await first.close();
    truncateSync(file, 0);
    const { store, problem } = openDatastore(file);
    expect(problem).toMatch(/reaper\.sqlite was empty \(0 bytes\)/);
    expect(await store.loadRecords()).toEqual([]);
    await store.close();
  });
});

describe('the datastore files', () => {
  it('are owner-only, whoever created them with a wider mode', async () => {
    const file = join(dir(), 'reaper.sqlite');
    const old = new SqliteStore(file);
    await old.close();
    chmodSync(file, 0o644);
    const store = new SqliteStore(file);
    await store.commit({ upsert: newRecord('app_a', 'orga_a', 'a', NOW), history: [] });
    for (const suffix of ['', '-wal', '-shm']) {
      expect({ suffix, mode: statSync(file + suffix).mode & 0o777 }).toEqual({ suffix, mode: 0o600 });
    }
    await store.close();
  });
});

/**
 * The state after a crash on a read-only mount: the file with its -wal and -shm, opened where nothing
 * can be written. A private mount namespace (`unshare -m`, root only) binds the folder read-only for
 * one child process, which opens the datastore as the reaper does.
 */
const canMountReadOnly = (() => {
  if (process.getuid?.() !== 0) return false;
  return spawnSync('unshare', ['-m', 'true']).status === 0;
})();

describe('a datastore on a read-only mount, with the -wal and -shm of a crash', () => {
  it.skipIf(!canMountReadOnly)(
    'is said at open, not found at the first decision (needs root and unshare -m)',
    () => {
      const folder = dir();
      const file = join(folder, 'reaper.sqlite');
      // A writer killed mid-life: its WAL holds the last commit, -shm is left behind.
      const writer = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { SqliteStore } from ${JSON.stringify(new URL('./sqlite-store.ts', import.meta.url).href)};
           const store = new SqliteStore(${JSON.stringify(file)});
           store.db.exec("PRAGMA wal_autocheckpoint = 0");
           await store.commit({ history: [{ appId: 'app_1', at: 1, kind: 'transition', from: 'Up', to: 'Down', actor: 'reaper', reason: 'crash test' }] });
           process.kill(process.pid, 'SIGKILL');`,
        ],
        { encoding: 'utf8' },
      );
      expect(writer.signal, writer.stderr).toBe('SIGKILL');
      expect(existsSync(`${file}-wal`)).toBe(true);
      expect(existsSync(`${file}-shm`)).toBe(true);

      const opener = `import { openDatastore } from ${JSON.stringify(new URL('./open-sqlite.ts', import.meta.url).href)};
        const { store, problem } = openDatastore(${JSON.stringify(file)});
        console.log(JSON.stringify({ file: store.file, problem }));`;
      const run = spawnSync(
        'unshare',
        [
          '-m',
          'sh',
          '-c',
          `mount --bind -o ro "$1" "$1" && exec "$2" --input-type=module -e "$3"`,
          'sh',
          folder,
          process.execPath,
          opener,
        ],
        { encoding: 'utf8' },
      );
      expect(run.status, run.stderr).toBe(0);
      const opened = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        file: string;
        problem: string | null;
      };
      expect(opened.problem).toMatch(/cannot be used \(.+\)\. The reaper runs without saving/);
      expect(opened.file).toBe(':memory:');
    },
  );
});
