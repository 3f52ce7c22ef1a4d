/**
 * The settings a team must share (team/agreed-settings.ts), across headless servers on one throwaway
 * PostgreSQL: the first instance writes its lease time; another started with a different one refuses
 * to start while the first runs, naming both values and the fix; one given none takes the stored one;
 * two starting together with different ones: exactly one starts; with every instance stopped, a new
 * lease time is written.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScaledClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../testing/postgres-cluster.ts';
import { until } from '../testing/serve-process.ts';
import { startTeamInstance, type TeamInstance } from '../testing/team-instances.ts';

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(`one lease time for the team${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  let sim: SimulatorServer | null = null;
  const running: TeamInstance[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(async () => {
    for (const i of running.splice(0)) await i.close();
    await sim?.close();
    await cluster?.stop();
  });

  async function world() {
    const clock = new ScaledClock(1, { real: Date.now(), fake: Date.now() });
    const cloud = new SimulatedCloud(clock);
    cloud.addApp(cloud.addOrganisation('Acme').id, 'shop');
    sim ??= await startSimulatorServer({ cloud });
    const database = await cluster.createDatabase();
    const start = async (leaseMs?: number, logs?: string[]) => {
      const i = await startTeamInstance({
        database,
        sim: sim!,
        clock,
        ...(leaseMs ? { leaseMs } : {}),
        ...(logs ? { log: (level, message) => logs.push(`[${level}] ${message}`) } : {}),
      });
      running.push(i);
      return i;
    };
    const stop = async (i: TeamInstance) => {
      running.splice(running.indexOf(i), 1);
      await i.close();
    };
    return { database, start, stop };
  }

  const leaseOf = (i: TeamInstance) => i.server.service.current!.leases!.leaseMs;

  it('the first writes it; a different one is refused naming both; none given takes it', async () => {
    const { database, start, stop } = await world();
    const first = await start(1500);
    expect(leaseOf(first)).toBe(1500);
    await expect(start(30_000)).rejects.toThrow(
      /--lease-seconds is 30 here, but the instances running on this database use 1\.5 .*Start this one with --lease-seconds 1\.5 .*or stop every instance and start them all with --lease-seconds 30/,
    );
    const logs: string[] = [];
    const second = await start(undefined, logs);
    expect(leaseOf(second)).toBe(1500);
    expect(logs.join('\n')).toContain('the lease time stored in the database is taken: 1.5 s');
    const same = await start(1500);
    expect(leaseOf(same)).toBe(1500);

    // Every instance stopped, and a lease time past since any was seen: a new one is written.
    for (const i of [first, second, same]) await stop(i);
    const db = new pg.Client({ connectionString: database });
    await db.connect();
    try {
      await until('a lease time without any instance', 20_000, async () => {
        const { rows } = await db.query<{ quiet: boolean }>(
          `SELECT (SELECT coalesce(max(seen_at), 0) FROM instances) < (extract(epoch FROM clock_timestamp()) * 1000) - 1500
              AND (SELECT set_at FROM team_settings) < (extract(epoch FROM clock_timestamp()) * 1000) - 1500 AS quiet`,
        );
        return rows[0]?.quiet === true;
      });
      const changed: string[] = [];
      const next = await start(2500, changed);
      expect(leaseOf(next)).toBe(2500);
      expect(changed.join('\n')).toContain('the lease time changes from 1.5 s to 2.5 s');
      const { rows } = await db.query<{ value: string }>(
        "SELECT value FROM team_settings WHERE name = 'lease_ms'",
      );
      expect(rows).toEqual([{ value: '2500' }]);
    } finally {
      await db.end();
    }
  });

  it('two instances starting together with different lease times: exactly one starts', async () => {
    const { start } = await world();
    const [a, b] = await Promise.allSettled([start(1500), start(4000)]);
    const started = [a, b].filter((r) => r.status === 'fulfilled');
    const refused = [a, b].filter((r) => r.status === 'rejected');
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(String(refused[0]!.reason)).toMatch(
      /SettingsDisagree: team mode: --lease-seconds is (1\.5|4) here/,
    );
  });
});
