/**
 * The client against the simulator over real HTTP on loopback, and against fixtures shaped like the
 * real API (quirks included).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CleverCallError } from '../../shared/port-errors.ts';
import { systemClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import { until } from '../testing/serve-process.ts';
import { type CallRecord, CleverClient } from './client.ts';
import { type Credentials, operatorCredentials } from './credentials.ts';

const oauth = DEMO_CREDENTIALS.oauth;
const good = operatorCredentials(
  { kind: 'oauth1', token: oauth.token, secret: oauth.secret },
  { consumerKey: oauth.consumerKey, consumerSecret: oauth.consumerSecret },
);

let sim: SimulatorServer;
let cloud: SimulatedCloud;
let calls: CallRecord[];

function client(
  credentials: Credentials = good,
  extra: Partial<ConstructorParameters<typeof CleverClient>[0]> = {},
) {
  return new CleverClient({
    credentials,
    apiHost: sim.url,
    timeoutMs: 2000,
    retryLimit: 3,
    backoffLimitMs: 50,
    onCall: (c) => calls.push(c),
    ...extra,
  });
}

beforeEach(async () => {
  cloud = new SimulatedCloud(systemClock, { listingDelayMs: 0, deployDurationMs: 200, stopDurationMs: 100 });
  sim = await startSimulatorServer({ cloud });
  calls = [];
});
afterEach(async () => {
  await sim.close();
});

async function caught(p: Promise<unknown>): Promise<CleverCallError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof CleverCallError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('the client against the simulator', () => {
  it('lists the owners: the personal space first, then the organisations', async () => {
    const acme = cloud.addOrganisation('Acme');
    expect(await client().listOwners()).toEqual([
      { id: cloud.user.id, name: 'Personal space' },
      { id: acme.id, name: 'Acme' },
    ]);
  });

  it('reads the applications of an owner and one application, with state, deploy number and flavor', async () => {
    const acme = cloud.addOrganisation('Acme');
    const app = cloud.addApp(acme.id, 'staging', { state: 'SHOULD_BE_DOWN' });
    const [listed] = await client().listApplications(acme.id);
    expect(listed).toMatchObject({
      id: app.id,
      ownerId: acme.id,
      name: 'staging',
      state: 'SHOULD_BE_DOWN',
      lastDeployNumber: 1,
      instances: { min: 1, max: 1, flavorName: 'XS' },
    });
    expect(await client().getApplication(acme.id, app.id)).toEqual(listed);
  });

  it('an app that does not exist reads as null; its deployments as an empty list', async () => {
    const acme = cloud.addOrganisation('Acme');
    expect(await client().getApplication(acme.id, 'app_00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await client().listDeployments(acme.id, 'app_00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('starts an app (its deployment id returned) and follows it; stops it (an UNDEPLOY entry)', async () => {
    const acme = cloud.addOrganisation('Acme');
    const app = cloud.addApp(acme.id, 'staging', { state: 'SHOULD_BE_DOWN' });
    const c = client();
    const { deploymentId } = await c.startApplication(acme.id, app.id);
    expect(deploymentId).toMatch(/^[0-9a-f-]{36}$/);
    const [newest] = await c.listDeployments(acme.id, app.id, { limit: 5 });
    expect(newest).toMatchObject({ uuid: deploymentId, state: 'WIP', action: 'DEPLOY' });
    await until(
      'the app Up at Clever Cloud',
      20_000,
      async () => (await c.getApplication(acme.id, app.id))?.state === 'SHOULD_BE_UP',
    );
    expect((await c.getApplication(acme.id, app.id))?.state).toBe('SHOULD_BE_UP');
    await c.stopApplication(acme.id, app.id);
    expect((await c.listDeployments(acme.id, app.id))[0]).toMatchObject({ action: 'UNDEPLOY' });
  });

  it('a personal-space app is reached through /v2/organisations/user_...', async () => {
    const app = cloud.addApp(cloud.user.id, 'mine');
    expect((await client().getApplication(cloud.user.id, app.id))?.name).toBe('mine');
    expect(calls.at(-1)?.endpoint).toBe('GET /v2/organisations/:XXX/applications/:XXX');
  });

  it('error 4014 on a start is recognised as "never deployed", with status, id and message', async () => {
    const acme = cloud.addOrganisation('Acme');
    const app = cloud.addApp(acme.id, 'legacy', { neverDeployed: true });
    const error = await caught(client().startApplication(acme.id, app.id));
    expect(error).toMatchObject({ kind: 'never-deployed', status: 400, cleverId: 4014 });
    expect(error.message).toMatch(
      /^Clever Cloud answered 400 \(error 4014\) to POST \/v2\/organisations\/:XXX\/applications\/:XXX\/instances: /,
    );
  });

  it('bad credentials: 401 unauthorized, and the secret is in no message', async () => {
    const bad = operatorCredentials({ kind: 'oauth1', token: oauth.token, secret: 'wrong-secret-value' });
    const error = await caught(client(bad).listOwners());
    expect(error.kind).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(JSON.stringify({ m: error.message, s: error.stack })).not.toContain('wrong-secret-value');
  });

  it('an API token goes as Bearer', async () => {
    const apiToken = operatorCredentials({ kind: 'api-token', token: DEMO_CREDENTIALS.apiTokens[0]! });
    expect((await client(apiToken).listOwners())[0]?.id).toBe(cloud.user.id);
    const wrong = operatorCredentials({ kind: 'api-token', token: 'nope' });
    expect((await caught(client(wrong).listOwners())).kind).toBe('unauthorized');
  });

  it('a 5xx burst on a read is retried with backoff until it succeeds', async () => {
    const acme = cloud.addOrganisation('Acme');
    sim.faults.push({ kind: 'status', status: 503, count: 2 }, { kind: 'status', status: 500, count: 1 });
    expect(await client().listApplications(acme.id)).toEqual([]);
    expect(sim.calls.get('GET /v2/organisations/:XXX/applications')).toBe(4);
  });

  it('429 is retried after the Retry-After the server asked for', async () => {
    const acme = cloud.addOrganisation('Acme');
    sim.faults.push({ kind: 'status', status: 429, retryAfterSec: 1, count: 1 });
    const started = Date.now();
    await client().listApplications(acme.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(sim.calls.get('GET /v2/organisations/:XXX/applications')).toBe(2);
  });

  it('other 4xx are never retried', async () => {
    const acme = cloud.addOrganisation('Acme');
    sim.faults.push({ kind: 'status', status: 400, count: 5 });
    expect((await caught(client().listApplications(acme.id))).kind).toBe('client');
    expect(sim.calls.get('GET /v2/organisations/:XXX/applications')).toBe(1);
  });

  it('a 5xx burst longer than the retries ends in a "server" error, marked transient', async () => {
    const acme = cloud.addOrganisation('Acme');
    sim.faults.push({ kind: 'status', status: 502, count: 10 });
    const error = await caught(client().listApplications(acme.id));
    expect(error.kind).toBe('server');
    expect(error.transient).toBe(true);
    expect(sim.calls.get('GET /v2/organisations/:XXX/applications')).toBe(4);
  });

  it('a slow answer times out per attempt, and reads retry it', async () => {
    const acme = cloud.addOrganisation('Acme');
    sim.faults.push({ kind: 'delay', ms: 600, count: 1 });
    const list = await client(good, { timeoutMs: 300 }).listApplications(acme.id);
    expect(list).toEqual([]);
    sim.faults.push({ kind: 'delay', ms: 600, count: 10 });
    expect(
      (await caught(client(good, { timeoutMs: 300, retryLimit: 1 }).listApplications(acme.id))).kind,
    ).toBe('timeout');
  });

  it('a dropped connection on a read is retried', async () => {
    const acme = cloud.addOrganisation('Acme');
    sim.faults.push({ kind: 'drop', count: 2 });
    expect(await client().listApplications(acme.id)).toEqual([]);
  });

  it('a start whose answer is lost is not sent again by the client (the engine checks first)', async () => {
    const acme = cloud.addOrganisation('Acme');
    const app = cloud.addApp(acme.id, 'staging', { state: 'SHOULD_BE_DOWN' });
    sim.faults.push({ kind: 'drop-after', count: 1, match: 'POST' });
    expect((await caught(client().startApplication(acme.id, app.id))).kind).toBe('network');
    expect(sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances')).toBe(1);
    expect(cloud.deployments(app)[0]).toMatchObject({ action: 'DEPLOY', state: 'WIP' });
  });

  it('a start answered 429 is sent again after Retry-After (it was not carried out)', async () => {
    const acme = cloud.addOrganisation('Acme');
    const app = cloud.addApp(acme.id, 'staging', { state: 'SHOULD_BE_DOWN' });
    sim.faults.push({ kind: 'status', status: 429, retryAfterSec: 0, count: 1, match: 'POST' });
    expect((await client().startApplication(acme.id, app.id)).deploymentId).not.toBeNull();
    expect(sim.calls.get('POST /v2/organisations/:XXX/applications/:XXX/instances')).toBe(2);
    expect(cloud.deployments(app).filter((d) => d.action === 'DEPLOY')).toHaveLength(2);
  });

  it('a call is cancellable', async () => {
    const acme = cloud.addOrganisation('Acme');
    sim.faults.push({ kind: 'delay', ms: 1500, count: 1 });
    const controller = new AbortController();
    const pending = client().listApplications(acme.id, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await caught(pending)).kind).toBe('aborted');
  });

  it('reports every call with its endpoint, status and outcome (for metrics)', async () => {
    const acme = cloud.addOrganisation('Acme');
    await client().listApplications(acme.id);
    expect(calls).toEqual([
      expect.objectContaining({
        endpoint: 'GET /v2/organisations/:XXX/applications',
        status: 200,
        outcome: 'ok',
      }),
    ]);
  });
});

describe('the client on fixtures shaped like the real API', () => {
  function fixtureClient(routes: Record<string, { status?: number; body: unknown }>) {
    const fetch = async (input: string | URL | Request) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const route = routes[url.pathname];
      if (!route)
        return new Response(JSON.stringify({ id: 404, message: 'no', type: 'error' }), { status: 404 });
      return new Response(JSON.stringify(route.body), {
        status: route.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    return new CleverClient({
      credentials: good,
      apiHost: 'https://api.test',
      fetch: fetch as typeof globalThis.fetch,
      retryLimit: 0,
    });
  }
  const base = '/v2/organisations/orga_1/applications/app_1';

  it('reads dates given as strings with a [UTC] suffix, or as numeric strings', async () => {
    const c = fixtureClient({
      [`${base}/deployments`]: {
        body: [
          { uuid: 'a', state: 'OK', action: 'DEPLOY', date: '2026-01-05T09:00:00Z[UTC]' },
          { uuid: 'b', state: 'OK', action: 'DEPLOY', date: '1767600000000' },
        ],
      },
    });
    const [a, b] = await c.listDeployments('orga_1', 'app_1');
    expect(a?.date).toBe(Date.UTC(2026, 0, 5, 9));
    expect(b?.date).toBe(1767600000000);
  });

  it('keeps enum values it does not know as text', async () => {
    const c = fixtureClient({
      [base]: { body: { id: 'app_1', name: 'x', state: 'SLEEPING_SOMEHOW', last_deploy: 3 } },
      [`${base}/deployments`]: { body: [{ uuid: 'a', state: 'QUEUED', action: 'REDEPLOY', date: 1 }] },
    });
    expect((await c.getApplication('orga_1', 'app_1'))?.state).toBe('SLEEPING_SOMEHOW');
    expect((await c.listDeployments('orga_1', 'app_1'))[0]).toMatchObject({
      state: 'QUEUED',
      action: 'REDEPLOY',
    });
  });

  it('reads a WIP deployment that is not the newest as failed', async () => {
    const c = fixtureClient({
      [`${base}/deployments`]: {
        body: [
          { uuid: 'new', state: 'WIP', action: 'DEPLOY', date: 3 },
          { uuid: 'old', state: 'WIP', action: 'DEPLOY', date: 2 },
        ],
      },
    });
    expect((await c.listDeployments('orga_1', 'app_1')).map((d) => d.state)).toEqual(['WIP', 'FAIL']);
  });

  it('an autoscaling entry listed after a WIP deployment does not make it failed', async () => {
    const c = fixtureClient({
      [`${base}/deployments`]: {
        body: [
          { uuid: 'scale', state: 'FAIL', action: 'DOWNSCALE', date: 3 },
          { uuid: 'ours', state: 'WIP', action: 'DEPLOY', date: 2 },
        ],
      },
    });
    expect((await c.listDeployments('orga_1', 'app_1')).map((d) => d.state)).toEqual(['FAIL', 'WIP']);
  });

  it('reads instance.lifetime, so task apps are known', async () => {
    const c = fixtureClient({
      [base]: { body: { id: 'app_1', state: 'SHOULD_BE_DOWN', instance: { lifetime: 'TASK' } } },
    });
    expect((await c.getApplication('orga_1', 'app_1'))?.lifetime).toBe('TASK');
  });

  it('a deployment not yet listed right after a start reads as null', async () => {
    const c = fixtureClient({});
    expect(await c.getDeployment('orga_1', 'app_1', 'fresh-id')).toBeNull();
  });

  it('tolerates absent optional fields (no last_deploy, no instance, no vhosts)', async () => {
    const c = fixtureClient({ [base]: { body: { id: 'app_1', state: 'SHOULD_BE_UP' } } });
    expect(await c.getApplication('orga_1', 'app_1')).toMatchObject({
      name: 'app_1',
      lastDeployNumber: null,
    });
  });

  it('an unexpected shape is a clear error naming the endpoint and the field', async () => {
    const c = fixtureClient({ [base]: { body: { id: 'app_1', state: 42 } } });
    const error = await caught(c.getApplication('orga_1', 'app_1'));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toMatch(
      /GET \/v2\/organisations\/:XXX\/applications\/:XXX with an unexpected shape at state/,
    );
  });

  it('a v4 error body ({error, code}) gives its code and text', async () => {
    const c = fixtureClient({
      [base]: { status: 403, body: { error: 'quota exceeded', code: 'clever.core.quota-exceeded' } },
    });
    const error = await caught(c.getApplication('orga_1', 'app_1'));
    expect(error).toMatchObject({ kind: 'forbidden', cleverId: 'clever.core.quota-exceeded' });
    expect(error.message).toMatch(/quota exceeded$/);
  });
});

describe('the access-log stream', () => {
  it('delivers ACCESS_LOG events with ids, and resumes after the last id seen', async () => {
    const acme = cloud.addOrganisation('Acme');
    const app = cloud.addApp(acme.id, 'staging');
    cloud.recordRequest(app.id, { path: '/a' });
    const c = client();
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = c.accessLogs(acme.id, app.id, {
      signal: controller.signal,
      since: new Date(0).toISOString(),
      onEvent: (e) => {
        if (e.event !== 'ACCESS_LOG') return;
        seen.push(`${e.id}:${JSON.parse(e.data).http.request.path}`);
        if (seen.length === 2) controller.abort();
      },
    });
    // The stream is open once it has given the request made before it.
    await until('the first request on the stream', 20_000, async () => seen.length > 0);
    cloud.recordRequest(app.id, { path: '/b' });
    await reading;
    expect(seen.map((s) => s.split(':')[1])).toEqual(['/a', '/b']);
    cloud.recordRequest(app.id, { path: '/c' });
    const resumed: string[] = [];
    const again = new AbortController();
    await c.accessLogs(acme.id, app.id, {
      signal: again.signal,
      lastEventId: seen[1]!.split(':')[0]!,
      onEvent: (e) => {
        if (e.event !== 'ACCESS_LOG') return;
        resumed.push(JSON.parse(e.data).http.request.path);
        again.abort();
      },
    });
    expect(resumed).toEqual(['/c']);
  });

  it('a stream cut after it opened rejects as a network error; a throwing handler ends it with its error', async () => {
    const acme = cloud.addOrganisation('Acme');
    const app = cloud.addApp(acme.id, 'staging');
    const c = client();
    cloud.recordRequest(app.id, { path: '/x' });
    let events = 0;
    const cut = c.accessLogs(acme.id, app.id, {
      since: new Date(0).toISOString(),
      onEvent: () => {
        events++;
      },
    });
    await vi.waitFor(() => expect(events).toBe(1));
    sim.server.closeAllConnections();
    expect(await caught(cut)).toMatchObject({ kind: 'network' });
    // An event handler that throws ends the stream with that error, not an uncaught exception.
    const refused = c.accessLogs(acme.id, app.id, {
      since: new Date(0).toISOString(),
      onEvent: (e) => {
        if (e.event === 'ACCESS_LOG') throw new Error('handler broke');
      },
    });
    expect((await caught(refused)).message).toContain('handler broke');
  });

  // The streams are read with node:http, not fetch: their failures must read as the calls' do.
  async function firstEvent(c: CleverClient, ownerId: string, appId: string) {
    const controller = new AbortController();
    let first: unknown = null;
    await c.accessLogs(ownerId, appId, {
      signal: controller.signal,
      onEvent: (e) => {
        first = e;
        controller.abort();
      },
    });
    return first;
  }

  it('a refused stream is a CleverCallError like any call: 401 unauthorized, no secret in it', async () => {
    const acme = cloud.addOrganisation('Acme');
    const app = cloud.addApp(acme.id, 'staging');
    const bad = operatorCredentials({ kind: 'oauth1', token: oauth.token, secret: 'wrong-secret-value' });
    const error = await caught(firstEvent(client(bad), acme.id, app.id));
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(JSON.stringify({ m: error.message, s: error.stack })).not.toContain('wrong-secret-value');
    expect(calls.at(-1)).toMatchObject({ status: 401, outcome: 'unauthorized' });
  });

  it('a stream of an unknown app is not-found; an unreachable server is a network error', async () => {
    const acme = cloud.addOrganisation('Acme');
    expect(await caught(firstEvent(client(), acme.id, 'app_nope'))).toMatchObject({ kind: 'not-found' });
    const url = sim.url;
    await sim.close();
    const error = await caught(firstEvent(client(good, { apiHost: url }), acme.id, 'app_nope'));
    expect(error.kind).toBe('network');
    // Refused, or reset when a kept-alive socket of the closed server is tried first.
    expect(error.message).toMatch(/ECONNREFUSED|ECONNRESET/);
  });
});
