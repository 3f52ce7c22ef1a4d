/**
 * Team mode: the webhooks' delivery state and the credentials' status are read from the datastore,
 * so every instance shows the same. Two headless servers on one real PostgreSQL: a failed delivery
 * met by instance A shows in instance B's webhook view; the credentials' problem one instance met is
 * what both say. What is stored holds no token, secret or payload. Two dispatchers on one datastore
 * add their counts together.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CredentialsStatus, NO_CREDENTIALS, type ReaperStatus } from '../../shared/api.ts';
import type { WebhookStatus } from '../../shared/webhooks.ts';
import { WebhookDispatcher } from '../alerts/webhooks.ts';
import { ManualClock } from '../engine/clocks.ts';
import type { CredentialsManager } from '../service/credentials.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { PostgresStore } from '../store/postgres/pg-store.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from '../testing/postgres-cluster.ts';
import { adminCall, TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

const skip = postgresSkipReason();
const SECRET = 'a-secret-token-that-must-never-be-stored-0123456789';

/** Credentials with a status of the test's choosing (and a secret it must never see stored). */
function credentials(clever: InProcessCleverPort, status: Partial<CredentialsStatus>): CredentialsManager {
  const secret = SECRET;
  return {
    async status() {
      return { ...NO_CREDENTIALS, state: 'connected', ...status, canConnect: true };
    },
    async open() {
      void secret;
      return clever;
    },
    async connect() {
      return clever;
    },
  };
}

describe.skipIf(skip !== null)(`state shared by the instances${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let cluster: PostgresCluster;
  const dirs: string[] = [];
  const receivers: Server[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(async () => {
    for (const r of receivers) r.close();
    await cluster?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A receiver answering `answer()` (500 until told otherwise). */
  async function receiver(): Promise<{ url: string; answer: { status: number } }> {
    const answer = { status: 500 };
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(answer.status);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receivers.push(server);
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, answer };
  }

  it("instance B shows the webhook failure and the credentials' problem instance A met", async () => {
    const database = await cluster.createDatabase();
    const clock = new ManualClock(MONDAY_9AM);
    const cloud = new SimulatedCloud(clock);
    cloud.addApp(cloud.addOrganisation('Acme').id, 'staging');
    const clever = new InProcessCleverPort(cloud);
    const serve = async (status: Partial<CredentialsStatus>) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'reaper-shared-'));
      dirs.push(dataDir);
      return startHeadless({
        ...TEST_SERVER,
        dataDir,
        database,
        leaseMs: 60_000,
        credentials: credentials(clever, status),
        accountClock: clock,
      });
    };
    const call = async <T>(server: Headless, method: string, path: string, body?: unknown) =>
      (await adminCall<T>(server, method, path, body)).body;
    const hook = await receiver();
    const b = await serve({ account: 'ops@example.test' });
    let a: Headless | null = null;
    const db = new pg.Client({ connectionString: database });
    await db.connect();
    try {
      await call(b, 'PATCH', '/api/settings', {
        webhooks: [{ url: hook.url, format: 'json', events: ['error'] }],
      });
      expect((await call<ReaperStatus>(b, 'GET', '/api/status')).credentials).toMatchObject({
        state: 'connected',
        account: 'ops@example.test',
        problem: null,
      });
      a = await serve({ account: null, problem: 'the credentials could not be checked yet: ECONNRESET' });

      // A's test delivery fails; B's webhook view shows it.
      const test = await call<{ ok: boolean }>(a, 'POST', '/api/webhooks/_test', {
        url: hook.url,
        format: 'json',
      });
      expect(test.ok).toBe(false);
      const seen = await (async () => {
        for (let i = 0; i < 100; i++) {
          const [s] = await call<WebhookStatus[]>(b, 'GET', '/api/webhooks');
          if (s?.lastError) return s;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error("B never showed A's failure");
      })();
      expect(seen).toMatchObject({
        url: hook.url,
        lastError: 'HTTP 500 Internal Server Error',
        lastSuccessAt: null,
      });
      expect(seen.lastFailureAt).not.toBeNull();

      // The credentials' problem A met (the newest written) is what both show; the source stays each one's.
      for (const server of [a, b]) {
        expect((await call<ReaperStatus>(server, 'GET', '/api/status')).credentials).toMatchObject({
          state: 'connected',
          account: 'ops@example.test',
          problem: 'the credentials could not be checked yet: ECONNRESET',
        });
      }

      // B delivers the next one; A shows the success after the failure.
      hook.answer.status = 204;
      expect(
        (await call<{ ok: boolean }>(b, 'POST', '/api/webhooks/_test', { url: hook.url, format: 'json' })).ok,
      ).toBe(true);
      const after = await (async () => {
        for (let i = 0; i < 100; i++) {
          const [s] = await call<WebhookStatus[]>(a!, 'GET', '/api/webhooks');
          if (s?.lastSuccessAt) return s;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error("A never showed B's success");
      })();
      expect(after.lastFailureAt).toBe(seen.lastFailureAt);

      // Nothing secret stored: the rows hold the fields shown, no token, no payload.
      const rows = await db.query<{ status: Record<string, unknown> }>(
        'SELECT status FROM webhook_deliveries UNION ALL SELECT status FROM credentials_status',
      );
      const text = JSON.stringify(rows.rows);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('clever-reaper"'); // no payload's `source`
      expect(Object.keys(rows.rows[0]!.status).sort()).toEqual(
        ['delivered', 'failed', 'lastError', 'lastFailureAt', 'lastSuccessAt', 'pending', 'url'].sort(),
      );
      expect(Object.keys(rows.rows[1]!.status).sort()).toEqual(['account', 'at', 'problem', 'state']);
    } finally {
      await db.end();
      await a?.close();
      await b.close();
    }
  }, 60_000);

  it("two instances' delivery counts add up in the datastore", async () => {
    const url = await cluster.createDatabase();
    const hook = await receiver();
    const stores = [await PostgresStore.open(url), await PostgresStore.open(url)];
    const dispatchers = stores.map((store) => {
      const d = new WebhookDispatcher({
        webhooks: () => [{ url: hook.url, format: 'json', events: ['error'] }],
        maxAttempts: 1,
      });
      d.keepStateIn(store);
      return d;
    });
    const [a, b] = dispatchers as [WebhookDispatcher, WebhookDispatcher];
    const event = {
      event: 'error' as const,
      appId: 'app_1',
      appName: 'one',
      ownerId: 'orga_1',
      at: MONDAY_9AM,
      state: 'Error' as const,
      cause: 'deployment failed',
      reason: 'deployment failed',
      actor: 'reaper' as const,
      durationMs: null,
    };
    try {
      a.notify(event);
      a.notify(event);
      const until = async (d: WebhookDispatcher, ok: (s: WebhookStatus) => boolean) => {
        for (let i = 0; i < 200; i++) {
          await d.flushed();
          const [s] = await d.sharedStatus();
          if (s && ok(s)) return s;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error('never reached');
      };
      await until(a, (s) => s.failed === 2);
      hook.answer.status = 200;
      b.notify(event);
      const both = await until(b, (s) => s.delivered === 1);
      expect(both).toMatchObject({
        delivered: 1,
        failed: 2,
        pending: 0,
        lastError: 'HTTP 500 Internal Server Error',
      });
      expect(await a.sharedStatus()).toEqual([both]);
      // This instance's own view is its own only.
      expect(a.status()[0]).toMatchObject({ delivered: 0, failed: 2 });
    } finally {
      for (const d of dispatchers) d.close();
      for (const s of stores) await s.close();
    }
  });
});
