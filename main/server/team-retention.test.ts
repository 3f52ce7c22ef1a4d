/**
 * The history retention of two headless servers on one real PostgreSQL: one prunes, the other
 * skips its runs (the gate of postgres/retention-lock.ts, wired by the service's operations); the
 * entries past retention are gone, the others kept.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../shared/domain.ts';
import { DAY } from '../../shared/durations.ts';
import type { Log } from '../../shared/log.ts';
import { ManualClock } from '../engine/clocks.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../testing/postgres-cluster.ts';
import { until } from '../testing/serve-process.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(`retention in team mode${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  const dirs: string[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('two servers: one prunes the history, the other skips', async () => {
    const database = await cluster.createDatabase();
    const entry = (at: number, reason: string): HistoryEntry => ({
      appId: 'app_old',
      at,
      kind: 'transition',
      from: 'Up',
      to: 'WaitingForShutdown',
      actor: 'reaper',
      reason,
    });

    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const logs: string[][] = [];
    const serve = async (i: number) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'reaper-team-retention-'));
      dirs.push(dataDir);
      logs[i] = [];
      const log: Log = (_level, message) => void logs[i]!.push(message);
      return startHeadless({
        ...TEST_SERVER,
        dataDir,
        database,
        leaseMs: 60_000,
        clever: new InProcessCleverPort(cloud),
        accountClock: clock,
        log,
        operations: { retention: { firstAfterMs: 300, everyMs: 200 } },
      });
    };
    const servers: Headless[] = [];
    const db = new pg.Client({ connectionString: database });
    await db.connect();
    try {
      servers.push(await serve(0), await serve(1));
      const said = (i: number, what: RegExp) => logs[i]!.some((m) => what.test(m));
      // Both live, and one of them skipping: the runs of the first, alone while the second started (a
      // loaded machine), are over. Then entries past the default retention (180 days) and recent ones.
      await until('both servers live, one skipping', 15_000, async () => {
        const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM instances');
        return rows[0]!.n === 2 && (said(0, /skipped here/) || said(1, /skipped here/));
      });
      for (const l of logs) l.length = 0;
      const seed = await PostgresStore.open(database);
      await seed.commit({
        history: [
          ...Array.from({ length: 30 }, (_, i) => entry(MONDAY_9AM - 200 * DAY + i, 'old')),
          ...Array.from({ length: 4 }, (_, i) => entry(MONDAY_9AM - DAY + i, 'recent')),
        ],
      });
      await seed.close();
      const deadline = Date.now() + 15_000;
      while (
        !(said(0, /skipped here/) || said(1, /skipped here/)) ||
        !(said(0, /deleted/) || said(1, /deleted/))
      ) {
        if (Date.now() > deadline) throw new Error(`no run seen:\n${logs.flat().join('\n')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      // One instance pruned, the other skipped every run of its own.
      const pruner = said(0, /deleted/) ? 0 : 1;
      expect(said(1 - pruner, /deleted/)).toBe(false);
      expect(said(pruner, /skipped here/)).toBe(false);
      expect(logs[pruner]!.find((m) => /deleted/.test(m))).toMatch(/history retention: 30 entries/);
      const left = await db.query<{ reason: string }>('SELECT reason FROM history WHERE app_id = $1', [
        'app_old',
      ]);
      expect(left.rows.map((r) => r.reason)).toEqual(['recent', 'recent', 'recent', 'recent']);
    } finally {
      await db.end();
      for (const s of servers) await s.close();
    }
  }, 60_000);
});
