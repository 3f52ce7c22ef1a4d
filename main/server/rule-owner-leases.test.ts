/**
 * Team mode: an owner named only by a rule (no route, no app record yet) has its lease like the
 * others, is balanced across the instances, and its matching apps are adopted and put to sleep by
 * the instance holding it, once. A rule on every owner registers the owners listed from Clever
 * Cloud. Two headless servers on one real PostgreSQL and one simulated cloud, on one manual clock.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
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

describe.skipIf(skip !== null)(`rule-only owners in team mode${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  const dirs: string[] = [];
  const servers: Headless[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => {});
    await cluster?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  function setup(database: string) {
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const stops = new Map<string, number>();
    const stop = cloud.stop.bind(cloud);
    cloud.stop = (ownerId, appId, cause) => {
      stops.set(appId, (stops.get(appId) ?? 0) + 1);
      stop(ownerId, appId, cause);
    };
    const serve = async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'reaper-rule-owner-'));
      dirs.push(dataDir);
      const server = await startHeadless({
        ...TEST_SERVER,
        dataDir,
        database,
        leaseMs: 1500,
        clever: new InProcessCleverPort(cloud),
        accountClock: clock,
      });
      servers.push(server);
      return server;
    };
    const call = async (server: Headless, method: string, path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${server.token.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return res.status;
    };
    return { clock, cloud, stops, serve, call };
  }

  async function leases(database: string): Promise<Map<string, string>> {
    const db = new pg.Client({ connectionString: database });
    await db.connect();
    try {
      const { rows } = await db.query<{ owner_id: string; holder: string }>(
        `SELECT owner_id, holder FROM leases WHERE expires_at > (extract(epoch FROM clock_timestamp()) * 1000)::bigint`,
      );
      return new Map(rows.map((r) => [r.owner_id, r.holder]));
    } finally {
      await db.end();
    }
  }

  it('an owner named by a rule only is leased, balanced and acted on by its holder, once', async () => {
    const database = await cluster.createDatabase();
    const { clock, cloud, stops, serve, call } = setup(database);
    const routed = cloud.addOrganisation('Routed');
    const ruled = cloud.addOrganisation('Ruled');
    const api = cloud.addApp(routed.id, 'api');
    const review = cloud.addApp(ruled.id, 'review-1');
    const other = cloud.addApp(ruled.id, 'website');

    const a = await serve();
    expect(
      await call(a, 'POST', '/api/routes', { appId: api.id, ownerId: routed.id, gracePeriodMs: MINUTE }),
    ).toBe(201);
    expect(
      await call(a, 'POST', '/api/rules', { ownerId: ruled.id, pattern: 'review-*', gracePeriodMs: MINUTE }),
    ).toBe(201);
    const b = await serve();
    const ids = [a, b].map((s) => s.service.current!.leases!.instanceId);

    // Both owners have a lease, one on each instance.
    const held = await until('both owners held, one by each instance', 15_000, async () => {
      const l = await leases(database);
      return l.size === 2 && new Set(l.values()).size === 2 ? l : null;
    });
    expect([...held.keys()].sort()).toEqual([routed.id, ruled.id].sort());
    expect(ids).toContain(held.get(ruled.id));
    const holder = [a, b][ids.indexOf(held.get(ruled.id)!)]!;
    const notHolder = holder === a ? b : a;
    expect(holder.service.current!.leases!.activeOwners()).toEqual([ruled.id]);

    // The rule's app is adopted and, idle past its grace, put to sleep by the holder; the other app
    // of that owner is left alone.
    await until('the apps put to sleep', 20_000, async () => {
      await clock.advance(MINUTE / 2);
      await new Promise((r) => setTimeout(r, 20));
      return stops.has(review.id) && stops.has(api.id);
    });
    await clock.advance(5 * MINUTE);
    // Both engines done with what those minutes asked of them (a second stop would be under way).
    await Promise.all([holder, notHolder].map((s) => s.service.current!.engine.idle()));
    expect(stops.get(review.id)).toBe(1);
    expect(stops.get(api.id)).toBe(1);
    expect(stops.has(other.id)).toBe(false);
    expect(holder.service.current!.engine.list().find((r) => r.appId === review.id)?.ownerId).toBe(ruled.id);
    // The other instance shows it from the datastore, and does not act on it.
    expect(notHolder.service.current!.leases!.acts(ruled.id)).toBe(false);
  }, 60_000);

  it('a rule on every owner registers the owners listed from Clever Cloud', async () => {
    const database = await cluster.createDatabase();
    const { cloud, serve, call } = setup(database);
    const owners = ['One', 'Two', 'Three'].map((name) => cloud.addOrganisation(name));
    for (const o of owners) cloud.addApp(o.id, 'preview-x');
    const a = await serve();
    expect(await call(a, 'POST', '/api/rules', { pattern: 'preview-*' })).toBe(201);
    const l = await until('a lease for every owner listed', 15_000, async () => {
      const l = await leases(database);
      return owners.every((o) => l.has(o.id)) ? l : null;
    });
    expect(a.service.current!.leases!.activeOwners()).toEqual(
      expect.arrayContaining(owners.map((o) => o.id)),
    );
    expect(l.size).toBeGreaterThanOrEqual(owners.length);
  }, 60_000);
});
