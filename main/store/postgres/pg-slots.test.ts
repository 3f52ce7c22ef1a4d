/**
 * A refusal for lack of connection slots, from a real PostgreSQL (a role limited to one connection,
 * which PostgreSQL refuses as it refuses past max_connections: SQLSTATE 53300): the start says what
 * to change. And the pool size is a setting (--pool-size, $REAPER_POOL_SIZE).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../server/cli.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../../testing/postgres-cluster.ts';
import { PostgresStore } from './pg-store.ts';

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(`no connection slot left${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('the start says what to change: max_connections, the pool size, the number of instances', async () => {
    const admin = new URL(await cluster.createDatabase());
    const su = new pg.Client({ connectionString: admin.toString() });
    await su.connect();
    try {
      await su.query("CREATE ROLE starved LOGIN PASSWORD 'starved' CONNECTION LIMIT 1");
      await su.query(`GRANT ALL ON DATABASE "${admin.pathname.slice(1)}" TO starved`);
      await su.query('GRANT ALL ON SCHEMA public TO starved');
      const url = new URL(admin);
      url.username = 'starved';
      url.password = 'starved';
      const other = new pg.Client({ connectionString: url.toString() });
      await other.connect(); // the one slot this role has, taken (as another instance would)
      try {
        await expect(PostgresStore.open(url.toString(), { max: 4 })).rejects.toThrow(
          /refused a connection: no connection slot left \(too many connections for role "starved"\)\. Each instance opens up to 5 connections \(its pool, --pool-size \/ REAPER_POOL_SIZE, now 4, and one for the bus\): raise max_connections on the database, lower the pool size, or run fewer instances/,
        );
      } finally {
        await other.end();
      }
    } finally {
      await su.end();
    }
  });
});

describe('the pool size', () => {
  it('is --pool-size, else $REAPER_POOL_SIZE, in team mode, 1 to 100', () => {
    const db = ['--database', 'postgres://db.example.test/reaper'];
    expect(parseCli([...db, '--pool-size', '4'], {})).toMatchObject({ poolSize: 4 });
    expect(parseCli(db, { REAPER_POOL_SIZE: '7' })).toMatchObject({ poolSize: 7 });
    expect(parseCli([...db, '--pool-size', '3'], { REAPER_POOL_SIZE: '7' })).toMatchObject({ poolSize: 3 });
    expect(parseCli(db, {})).not.toHaveProperty('poolSize');
    for (const bad of ['0', '101', '2.5', 'ten'])
      expect(() => parseCli([...db, '--pool-size', bad], {})).toThrow(/^--pool-size: .* from 1 to 100$/);
    expect(() => parseCli(['--pool-size', '4'], {})).toThrow('--pool-size: only with --database (team mode)');
  });
});
