/**
 * Team mode's datastore end to end: the headless server on an account with `database` set (what
 * `npm run serve -- --database postgres://...` gives it) keeps its routes, settings, app states and
 * history in PostgreSQL, not in the data directory, and finds them there after a restart. Skipped,
 * with the reason, where no PostgreSQL server exists outside CI.
 */

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppView } from '../../shared/api.ts';
import { SECOND } from '../../shared/durations.ts';
import type { HistoryPage } from '../../shared/history.ts';
import { ManualClock } from '../engine/clocks.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../testing/postgres-cluster.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { startHeadless } from './headless.ts';

const skip = postgresSkipReason();

describe.skipIf(skip !== null)(
  `the headless server on PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PostgresCluster;
    const dirs: string[] = [];
    beforeAll(async () => {
      cluster = await startPostgresCluster();
    }, 60_000);
    afterAll(async () => {
      await cluster?.stop();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    const org = cloud.addOrganisation('Acme');
    const app = cloud.addApp(org.id, 'staging');

    async function serve(dataDir: string, database: string) {
      const server = await startHeadless({
        ...TEST_SERVER,
        dataDir,
        database,
        clever: new InProcessCleverPort(cloud),
        accountClock: clock,
      });
      const call = async <T>(method: string, path: string, body?: unknown) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${server.token.token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        return {
          status: res.status,
          text,
          body: (text.startsWith('[') || text.startsWith('{') ? JSON.parse(text) : null) as T,
        };
      };
      /** Advance the engine's clock until the dashboard's apps say `label` (PostgreSQL answers in real time). */
      const until = async (label: string) => {
        for (let i = 0; i < 200; i++) {
          const apps = (await call<AppView[]>('GET', '/api/apps')).body;
          if (apps[0]?.label === label) return apps;
          await clock.advance(SECOND);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        throw new Error(`the app never showed ${label}`);
      };
      return { server, call, until };
    }

    it('keeps routes, settings, states and history in PostgreSQL across a restart', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'reaper-team-'));
      dirs.push(dataDir);
      const database = await cluster.createDatabase();
      const first = await serve(dataDir, database);
      try {
        expect(first.server.service.mode).toBe('account');
        expect((await first.call('POST', '/api/routes', { appId: app.id, ownerId: org.id })).status).toBe(
          201,
        );
        expect((await first.call('PATCH', '/api/settings', { dryRun: true })).status).toBe(200);
        const [view] = await first.until('Up');
        expect(view).toMatchObject({ name: 'staging', ownerName: 'Acme' });
      } finally {
        await first.server.close();
      }
      expect(existsSync(join(dataDir, 'config.json'))).toBe(false);
      expect(existsSync(join(dataDir, 'reaper.sqlite'))).toBe(false);

      const second = await serve(dataDir, database);
      try {
        expect((await second.call<{ dryRun: boolean }>('GET', '/api/settings')).body.dryRun).toBe(true);
        expect((await second.call<unknown[]>('GET', '/api/routes')).body).toHaveLength(1);
        expect((await second.call<AppView[]>('GET', '/api/apps')).body.map((a) => a.label)).toEqual(['Up']);
        const history = (await second.call<{ reason: string }[]>('GET', `/api/apps/${app.id}/history`)).body;
        expect(history.map((h) => h.reason)).toContain('put under the reaper by a route');
        const page = (await second.call<HistoryPage>('GET', '/api/history?limit=50')).body;
        expect(page.entries.map((e) => e.appName)).toContain('staging');
        const csv = await second.call('GET', '/api/history?format=csv');
        expect(csv.status).toBe(200);
        expect(csv.text.split('\r\n').filter(Boolean).length).toBe(page.entries.length + 1);
      } finally {
        await second.server.close();
      }
    });
  },
);
