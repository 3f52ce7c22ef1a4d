/**
 * Two `--one-port` instances on one host and one PostgreSQL: the wake-proxy port of the shared
 * settings is taken (by another process, or by the first instance as before), yet each instance
 * serves the wake proxy on its own server port: a visitor of a routed app reaches it through either.
 */
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../../shared/durations.ts';
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

function visit(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/', url), { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(skip !== null)(
  `two --one-port instances on one host${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PostgresCluster;
    let sim: SimulatorServer | null = null;
    let taken: Server | null = null;
    const instances: TeamInstance[] = [];
    beforeAll(async () => {
      cluster = await startPostgresCluster();
    }, 60_000);
    afterAll(async () => {
      for (const i of instances.splice(0)) await i.close();
      await sim?.close();
      if (taken) await new Promise((r) => taken!.close(r));
      await cluster?.stop();
    });

    it('each serves the wake proxy on its own server port', async () => {
      const clock = new ScaledClock(1, { real: Date.now(), fake: Date.now() });
      const cloud = new SimulatedCloud(clock);
      const org = cloud.addOrganisation('Acme');
      const app = cloud.addApp(org.id, 'shop');
      sim = await startSimulatorServer({ cloud });
      const database = await cluster.createDatabase();
      // The wake-proxy port of the settings is already taken on this host.
      taken = createServer();
      await new Promise<void>((r) => taken!.listen(0, '127.0.0.1', r));
      const wakeProxyPort = (taken.address() as { port: number }).port;

      const a = await startTeamInstance({ database, sim, clock, leaseMs: 1500, onePort: true });
      instances.push(a);
      expect((await a.call('PATCH', '/api/settings', { wakeProxyPort })).status).toBe(200);
      const created = await a.call('POST', '/api/routes', {
        appId: app.id,
        ownerId: org.id,
        hosts: ['shop.example.test'],
        gracePeriodMs: HOUR,
      });
      expect(created.status).toBe(201);
      const b = await startTeamInstance({ database, sim, clock, leaseMs: 1500, onePort: true });
      instances.push(b);
      for (const i of [a, b]) {
        await until(
          'the route known',
          15_000,
          async () => i.server.service.current?.traffic.wakeProxy != null,
        );
        const answer = await visit(i.server.url, 'shop.example.test');
        expect(answer.body).not.toContain('no app is routed');
        expect(answer.status).not.toBe(404);
        expect(i.server.service.current!.traffic.proxyStatus().problem).toBeNull();
      }
    });
  },
);
