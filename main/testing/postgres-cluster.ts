/**
 * A throwaway PostgreSQL cluster for tests: initdb in a temporary folder, a free port on loopback,
 * the unix socket in that folder, trust authentication, and everything removed afterwards (also when
 * the start fails, and at the exit of the test process if a test forgot to stop it).
 *
 * PostgreSQL refuses to run as root, and CI runs as root: the cluster then belongs to an unprivileged
 * user (the `postgres` system user of Debian's package, else `nobody`) and its commands run through
 * `runuser`.
 *
 * Outside CI, tests that need PostgreSQL skip (with the reason) where no initdb exists; in CI (`CI`
 * set) they run, and a missing initdb fails them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

export interface PostgresCluster {
  /** A connection URL to the `postgres` database, as the superuser `postgres`. */
  readonly url: string;
  readonly port: number;
  /** The temporary folder: data directory, socket and log. */
  readonly dir: string;
  /** A new empty database; its connection URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stop the server and remove the folder. Idempotent. */
  stop(): Promise<void>;
  /** Faults (fault-injection tests): SIGSTOP the postmaster and every backend; `thaw` SIGCONTs them. */
  freeze(): void;
  thaw(): void;
  /** A crash and its recovery: `pg_ctl stop -m immediate`, then the server started again on its port. */
  restart(): void;
  /** Only the crash half of `restart` (the server stays down until `startAgain`). */
  crash(): void;
  startAgain(): void;
}

/** The postmaster's pid (first line of postmaster.pid) and its children's, of a running cluster. */
function serverPids(data: string): number[] {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return [];
  }
  if (!Number.isSafeInteger(postmaster) || postmaster <= 0) return [];
  const children = spawnSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  return [postmaster, ...children];
}

/** The folder of initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/**
 * Why tests that need PostgreSQL skip here, or null when they run: they always run in CI, where a
 * missing initdb then fails `startPostgresCluster`.
 */
export function postgresSkipReason(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CI) return null;
  return findPostgresBin(env)
    ? null
    : 'no PostgreSQL server here (initdb not on PATH nor in /usr/lib/postgresql/*/bin): install the postgresql package to run these tests';
}

/** The uid and gid the cluster runs as when this process is root. */
function unprivilegedUser(): { name: string; uid: number; gid: number } {
  for (const name of ['postgres', 'nobody']) {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${name}:`));
    if (!line) continue;
    const [, , uid, gid] = line.split(':');
    return { name, uid: Number(uid), gid: Number(gid) };
  }
  throw new Error('running as root, and no unprivileged user (postgres, nobody) to run PostgreSQL as');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const running = new Set<() => void>();
let exitHook = false;

/** Start a new cluster. Throws (having removed what it made) when it cannot. */
export interface ClusterOptions {
  /**
   * Commits flushed before they are confirmed (PostgreSQL's default): a crash (`restart`, `crash`)
   * then loses no committed transaction. Off by default here, for speed: a test that crashes the
   * server and counts on what was committed turns it on.
   */
  synchronousCommit?: boolean;
}

export async function startPostgresCluster(clusterOptions: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      'PostgreSQL is needed here (CI) but initdb was found neither on PATH nor in /usr/lib/postgresql/*/bin',
    );
  }
  const root = process.getuid?.() === 0;
  const user = root ? unprivilegedUser() : null;
  const dir = mkdtempSync(join(tmpdir(), 'reaper-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const run = (command: string, args: string[]) => {
    const [file, argv] = user
      ? ['runuser', ['-u', user.name, '--', join(bin, command), ...args]]
      : [join(bin, command), args];
    return execFileSync(file, argv, { cwd: dir, stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } });
  };
  let started = false;
  const stopNow = () => {
    if (started) {
      const [file, argv] = user
        ? [
            'runuser',
            ['-u', user.name, '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'],
          ]
        : [join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']];
      spawnSync(file, argv, { stdio: 'ignore' });
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      // A test cluster: nothing to survive a power cut.
      '-c fsync=off',
      `-c synchronous_commit=${clusterOptions.synchronousCommit ? 'on' : 'off'}`,
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    started = true;
    const startServer = () =>
      run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '30', 'start']);
    startServer();
    const crashServer = () => {
      for (const pid of serverPids(data)) process.kill(pid, 'SIGCONT');
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    };
    running.add(stopNow);
    if (!exitHook) {
      exitHook = true;
      process.once('exit', () => {
        for (const stop of running) stop();
      });
    }
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    let count = 0;
    return {
      url,
      port,
      dir,
      async createDatabase(name = `test_${process.pid}_${++count}`) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
        } finally {
          await client.end();
        }
        return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
      },
      async stop() {
        running.delete(stopNow);
        stopNow();
      },
      freeze() {
        for (const pid of serverPids(data)) process.kill(pid, 'SIGSTOP');
      },
      thaw() {
        // The postmaster first: it forks no backend while its own are stopped.
        for (const pid of serverPids(data)) process.kill(pid, 'SIGCONT');
      },
      restart() {
        crashServer();
        startServer();
      },
      crash: () => crashServer(),
      startAgain: () => startServer(),
    };
  } catch (error) {
    let detail = '';
    try {
      detail = readFileSync(log, 'utf8').split('\n').slice(-10).join('\n');
    } catch {
      // No log yet.
    }
    stopNow();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(
      `could not start a PostgreSQL test cluster: ${error instanceof Error ? error.message : error}\n${stderr}${detail}`,
    );
  }
}

/** A query on a connection of its own, ended after it (a crash or a restart of the cluster ends the others). */
export async function queryOnce<R extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Crash the cluster (`crash`), then run `body`, which starts it again (`startAgain`) when it means
 * to; if the body failed before that, the cluster is started again here, for the file's next tests.
 */
export async function whileCrashed<T>(cluster: PostgresCluster, body: () => Promise<T>): Promise<T> {
  cluster.crash();
  try {
    return await body();
  } finally {
    const up = await queryOnce(cluster.url, 'SELECT 1').then(
      () => true,
      () => false,
    );
    if (!up) cluster.startAgain();
  }
}
