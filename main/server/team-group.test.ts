/**
 * Team mode, a group across instances: two headless servers on one throwaway PostgreSQL and one
 * simulator, two owners (one each, once the leases are balanced) and one group with a member of
 * each. A wake asked at either instance wakes every member: the member whose owner the other
 * instance holds is handed over (a wake request and its NOTIFY), like any wake that reaches an
 * instance not holding the app; no write is refused and no promise is left unhandled.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppView } from '../../shared/api.ts';
import { HOUR } from '../../shared/durations.ts';
import type { Log } from '../../shared/log.ts';
import { postgresSkipReason } from '../testing/postgres-cluster.ts';
import { until } from '../testing/serve-process.ts';
import { type TeamInstance, teamSuite } from '../testing/team-instances.ts';

const skip = postgresSkipReason();
const FACTOR = 30;
const LEASE_MS = 2000;
const START = 'POST /v2/organisations/:XXX/applications/:XXX/instances';

describe.skipIf(skip !== null)(`a group across instances${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const suite = teamSuite();
  /** Rejections nobody handled while a test ran (the bug: one per member held elsewhere). */
  let unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  for (const at of ['holder of the requested member', 'other instance'] as const) {
    it(`a wake asked at the ${at} wakes every member, whichever instance holds its owner`, async () => {
      const { clock, cloud } = suite.world(FACTOR);
      const acme = cloud.addOrganisation('Acme');
      const globex = cloud.addOrganisation('Globex');
      const front = cloud.addApp(acme.id, 'shop-front-pr-7', { state: 'SHOULD_BE_DOWN' });
      const api = cloud.addApp(globex.id, 'shop-api-pr-7', { state: 'SHOULD_BE_DOWN' });
      const { sim, database, db } = await suite.open(cloud);
      const lines: string[] = [];
      const log: Log = (level, message) => lines.push(`[${level}] ${message}`);
      const a = await suite.start({ database, clock, leaseMs: LEASE_MS, log });
      for (const [app, owner, host] of [
        [front, acme, 'front.example.test'],
        [api, globex, 'api.example.test'],
      ] as const) {
        const created = await a.call('POST', '/api/routes', {
          appId: app.id,
          ownerId: owner.id,
          hosts: [host],
          gracePeriodMs: HOUR,
          group: 'pr-7',
        });
        expect(created.status).toBe(201);
      }
      const b = await suite.start({ database, clock, leaseMs: LEASE_MS, log });
      const acting = (i: TeamInstance) => i.server.service.current?.leases?.activeOwners() ?? [];
      // Balanced: each instance acts on one owner (the first gives one back at its next round).
      await until('each instance acting on one owner', 20_000, async () => {
        const [ownersA, ownersB] = [acting(a), acting(b)];
        return ownersA.length === 1 && ownersB.length === 1 && ownersA[0] !== ownersB[0];
      });
      const frontHolder = acting(a)[0] === acme.id ? a : b;
      const other = frontHolder === a ? b : a;
      for (const i of [a, b]) {
        await until('both members seen asleep', 20_000, async () =>
          [front.id, api.id].every((id) => i.server.service.current!.engine.get(id)?.state === 'Down'),
        );
      }

      const askedAt = at === 'other instance' ? other : frontHolder;
      const woken = await askedAt.call<AppView>('POST', `/api/apps/${front.id}/_wake`);
      expect(woken.status).toBe(200);
      await until('every member started on Clever Cloud', 30_000, async () =>
        [front, api].every((app) => cloud.apps.get(app.id)!.state === 'SHOULD_BE_UP'),
      );
      // Each member's holder reads it Up, and the other instance sees it so through the bus.
      for (const i of [a, b]) {
        await until('both members Up on every instance', 30_000, async () =>
          [front.id, api.id].every((id) => i.server.service.current!.engine.get(id)?.state === 'Up'),
        );
      }
      // One start each: the member handed over was started by its holder alone.
      expect(sim.calls.get(START)).toBe(2);
      await until('the handed-over wake forgotten', 10_000, async () => {
        const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wake_requests');
        return rows[0]!.n === 0;
      });
      expect(unhandled).toEqual([]);
      expect(lines.filter((l) => /nobody handled|LeaseLost|not made/.test(l))).toEqual([]);
    }, 90_000);
  }
});
