/**
 * Timeouts on the database, each said with the database named and what was waited for: at start, a
 * server that accepts TCP and never answers (a plain net server on loopback); at run time, a
 * statement past statement_timeout on a real PostgreSQL, and a database that stalls (a relay in front
 * of it that stops passing bytes): the statement in flight, then a new connection.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../../testing/postgres-cluster.ts';
import { PostgresStore } from './pg-store.ts';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

describe('a database that accepts TCP and never answers', () => {
  it('fails the start with the database named and what was waited for, never hangs', async () => {
    let accepted = 0;
    const port = await listen(
      createServer((socket) => {
        accepted++;
        sockets.push(socket); // read, never answered
      }),
    );
    const opening = PostgresStore.open(`postgres://reaper:secret@127.0.0.1:${port}/reaper`, {
      timeouts: { connectMs: 300 },
    });
    await expect(opening).rejects.toThrow(
      `PostgreSQL at 127.0.0.1:${port}/reaper did not answer a new connection within 0.3 s (waited to connect and log in)`,
    );
    await expect(opening).rejects.not.toThrow(/secret/);
    expect(accepted).toBe(1);
  });
});

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(`at run time${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('a long statement is cancelled, a stalled database is given up on, each said', async () => {
    const direct = new URL(await cluster.createDatabase());
    // The relay: passes bytes both ways until frozen; frozen, it accepts and passes nothing more.
    let frozen = false;
    const pairs: [Socket, Socket][] = [];
    const relayPort = await listen(
      createServer((socket) => {
        sockets.push(socket);
        socket.on('error', () => socket.destroy());
        if (frozen) return;
        const up = connect(Number(direct.port), '127.0.0.1');
        sockets.push(up);
        up.on('error', () => socket.destroy());
        socket.pipe(up);
        up.pipe(socket);
        pairs.push([socket, up]);
      }),
    );
    const url = new URL(direct);
    url.port = String(relayPort);
    const where = `127.0.0.1:${relayPort}${url.pathname}`;
    const store = await PostgresStore.open(url.toString(), {
      max: 2,
      timeouts: { connectMs: 300, statementMs: 300 },
    });
    try {
      await expect(store.pool.query('SELECT pg_sleep(5)')).rejects.toThrow(
        `PostgreSQL at ${where} cancelled a statement that ran past 0.3 s (statement_timeout)`,
      );
      expect((await store.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);

      frozen = true;
      for (const [a, b] of pairs) {
        a.unpipe(b);
        b.unpipe(a);
        a.pause();
        b.pause();
      }
      // The connection in the pool: its statement waits for an answer that never comes.
      await expect(store.pool.query('SELECT 2')).rejects.toThrow(
        `PostgreSQL at ${where} did not answer a statement within 0.6 s (waited for its result)`,
      );
      // Then new connections: each waits for a server that never answers (the pool may still hold
      // an idle one, whose statement is given up on the same way first).
      const seen: string[] = [];
      for (let i = 0; i < 3 && !seen.some((m) => m.includes('new connection')); i++) {
        const failed = await store.pool.query('SELECT 3').then(
          () => 'answered',
          (error: Error) => error.message,
        );
        seen.push(failed);
      }
      expect(seen.at(-1)).toBe(
        `PostgreSQL at ${where} did not answer a new connection within 0.3 s (waited to connect and log in): is the database up and reachable?`,
      );
      for (const m of seen.slice(0, -1))
        expect(m).toContain(`PostgreSQL at ${where} did not answer a statement`);
    } finally {
      for (const s of sockets.splice(0)) s.destroy();
      await store.close();
    }
  });
});
