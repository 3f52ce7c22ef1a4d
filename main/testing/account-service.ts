/**
 * A service in account mode on a simulated cloud served over HTTP, with the real client: for tests
 * of what the service checks against Clever Cloud (routes to task apps, routes that would loop).
 * Test-only. Call `closeAccounts` after each test.
 */
import { CleverClient } from '../clever/client.ts';
import { operatorCredentials } from '../clever/credentials.ts';
import type { ManualClock } from '../engine/clocks.ts';
import { FixedCredentials } from '../service/credentials.ts';
import { ReaperService } from '../service/reaper-service.ts';
import { createSessionFactory } from '../service/session.ts';
import type { SimulatedCloud } from '../simulator/model.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import { MemoryBackend } from '../store/config-store.ts';
import { SqliteStore } from '../store/sqlite/sqlite-store.ts';

const closers: (() => Promise<void>)[] = [];

export async function closeAccounts(): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close();
}

/** The admin API of a service whose account is the simulated cloud. */
export async function accountOn(cloud: SimulatedCloud, clock: ManualClock) {
  const sim: SimulatorServer = await startSimulatorServer({ cloud });
  closers.push(() => sim.close());
  const o = DEMO_CREDENTIALS.oauth;
  const client = new CleverClient({
    credentials: operatorCredentials(
      { kind: 'oauth1', token: o.token, secret: o.secret },
      { consumerKey: o.consumerKey, consumerSecret: o.consumerSecret },
    ),
    apiHost: sim.url,
  });
  const service = new ReaperService({
    sessions: createSessionFactory({
      demoClock: clock,
      accountClock: clock,
      timeScale: 1,
      scenario: 'e2e',
      accountBackend: () => new MemoryBackend(),
      accountDatastore: () => ({ store: new SqliteStore(':memory:'), problem: null }),
    }),
    credentials: new FixedCredentials(client),
    initial: 'account',
    version: 'test',
  });
  await service.start();
  closers.push(() => service.close());
  return service.api();
}
