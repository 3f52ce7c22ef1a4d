/**
 * Contract: every simulator response the client uses validates against the schema of the same
 * endpoint in the published OpenAPI description (../shared/clever-cloud/openapi-excerpt.json, beside
 * the repository in CI), with no property the schema does not declare; and every endpoint the client
 * calls is one the description lists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallRecord, CleverClient } from '../clever/client.ts';
import { authorizationHeader, operatorCredentials } from '../clever/credentials.ts';
import { systemClock } from '../engine/clocks.ts';
import { SimulatedCloud } from './model.ts';
import { DEMO_CREDENTIALS, type SimulatorServer, startSimulatorServer } from './server.ts';

const EXCERPT = fileURLToPath(new URL('../../../shared/clever-cloud/openapi-excerpt.json', import.meta.url));
const present = existsSync(EXCERPT);
const reason = present
  ? ''
  : ' (skipped: ../shared/clever-cloud/openapi-excerpt.json is not beside the repository)';

interface Endpoint {
  method: string;
  normalizedPath: string;
  response: null | { statusCode: number; contentType: string; type: { type: string; schema?: object } };
}
type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  [k: string]: unknown;
};

/** The schema with every declared object closed: a property the schema does not name is an error. */
function closed(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, closed(v)]));
    if (Object.keys(schema.properties).length > 0) out.additionalProperties = false;
  }
  if (schema.items) out.items = closed(schema.items);
  return out;
}

describe.skipIf(!present)(`the simulator against the OpenAPI excerpt${reason}`, () => {
  const endpoints: Record<string, Endpoint> = present
    ? JSON.parse(readFileSync(EXCERPT, 'utf8')).endpoints
    : {};
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  let sim: SimulatorServer;
  let cloud: SimulatedCloud;
  let orgId: string;
  let appId: string;
  let stoppedId: string;
  const header = authorizationHeader(
    operatorCredentials(
      { kind: 'oauth1', token: DEMO_CREDENTIALS.oauth.token, secret: DEMO_CREDENTIALS.oauth.secret },
      {
        consumerKey: DEMO_CREDENTIALS.oauth.consumerKey,
        consumerSecret: DEMO_CREDENTIALS.oauth.consumerSecret,
      },
    ),
  );

  beforeAll(async () => {
    cloud = new SimulatedCloud(systemClock, { listingDelayMs: 0 });
    sim = await startSimulatorServer({ cloud });
    orgId = cloud.addOrganisation('Acme').id;
    appId = cloud.addApp(orgId, 'staging').id;
    stoppedId = cloud.addApp(orgId, 'asleep', { state: 'SHOULD_BE_DOWN' }).id;
    cloud.recordRequest(appId, { path: '/health' });
  });
  afterAll(() => sim.close());

  async function call(method: string, path: string) {
    const response = await fetch(`${sim.url}${path}`, { method, headers: { authorization: header } });
    const body = (await response.json()) as Record<string, unknown> & Record<string, unknown>[];
    return { status: response.status, type: response.headers.get('content-type') ?? '', body };
  }

  function check(key: string, body: unknown) {
    const endpoint = endpoints[key];
    expect(endpoint, `${key} is in the excerpt`).toBeDefined();
    const schema = endpoint!.response?.type.schema;
    expect(schema, `${key} has a response schema`).toBeDefined();
    const validate = ajv.compile(closed(schema as JsonSchema));
    const ok = validate(body);
    expect(ok ? [] : validate.errors).toEqual([]);
  }

  it.each([
    ['[GET] /v2/self', () => '/v2/self'],
    ['[GET] /v2/organisations', () => '/v2/organisations'],
    ['[GET] /v2/organisations/:XXX/applications', () => `/v2/organisations/${orgId}/applications`],
    [
      '[GET] /v2/organisations/:XXX/applications/:XXX',
      () => `/v2/organisations/${orgId}/applications/${appId}`,
    ],
    [
      '[GET] /v2/organisations/:XXX/applications/:XXX/deployments',
      () => `/v2/organisations/${orgId}/applications/${appId}/deployments?limit=10`,
    ],
    [
      '[GET] /v2/organisations/:XXX/applications/:XXX/vhosts',
      () => `/v2/organisations/${orgId}/applications/${appId}/vhosts`,
    ],
  ])('%s answers in the published shape', async (key, path) => {
    const answer = await call('GET', path());
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/json/);
    check(key, answer.body);
  });

  it('[DELETE] .../instances answers a Message', async () => {
    const answer = await call('DELETE', `/v2/organisations/${orgId}/applications/${appId}/instances`);
    expect(answer.status).toBe(200);
    check('[DELETE] /v2/organisations/:XXX/applications/:XXX/instances', answer.body);
  });

  it('[POST] .../instances answers with the deployment id (the excerpt has no schema: checked against the facts)', async () => {
    const answer = await call('POST', `/v2/organisations/${orgId}/applications/${stoppedId}/instances`);
    expect(answer.status).toBe(200);
    expect(answer.body.deploymentId).toEqual(expect.any(String));
    // Whether the answer also has the Message fields is unconfirmed: when present they must fit Message.
    const { deploymentId: _, ...messageFields } = answer.body;
    check('[DELETE] /v2/organisations/:XXX/applications/:XXX/instances', messageFields);
  });

  it('[GET] .../deployments/:XXX answers one deployment in the shape of the list items', async () => {
    const list = await call('GET', `/v2/organisations/${orgId}/applications/${appId}/deployments`);
    const uuid = String(list.body[0]?.uuid);
    const one = await call('GET', `/v2/organisations/${orgId}/applications/${appId}/deployments/${uuid}`);
    check('[GET] /v2/organisations/:XXX/applications/:XXX/deployments', [one.body]);
  });

  it('errors are v2 Messages (4014 for a never-deployed app, 401 without credentials)', async () => {
    const legacy = cloud.addApp(orgId, 'legacy', { neverDeployed: true }).id;
    const answer = await call('POST', `/v2/organisations/${orgId}/applications/${legacy}/instances`);
    expect(answer.body).toMatchObject({ id: 4014, type: 'error' });
    check('[DELETE] /v2/organisations/:XXX/applications/:XXX/instances', answer.body);
    const anonymous = await fetch(`${sim.url}/v2/self`);
    expect(anonymous.status).toBe(401);
    check('[DELETE] /v2/organisations/:XXX/applications/:XXX/instances', await anonymous.json());
  });

  it('the access-log stream is text/event-stream with ACCESS_LOG events in the documented fields', async () => {
    const controller = new AbortController();
    const response = await fetch(
      `${sim.url}/v4/logs/organisations/${orgId}/applications/${appId}/accesslogs?since=1970-01-01T00:00:00Z`,
      { headers: { authorization: header, accept: 'text/event-stream' }, signal: controller.signal },
    );
    expect(
      endpoints['[GET] /v4/logs/organisations/:XXX/applications/:XXX/accesslogs']?.response?.contentType,
    ).toBe('text/event-stream');
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    controller.abort();
    const text = new TextDecoder().decode(value);
    const data = JSON.parse(/data: (.*)/.exec(text)![1]!);
    expect(text).toMatch(/^id: \d+\nevent: ACCESS_LOG\n/);
    expect(Object.keys(data).sort()).toEqual(
      [
        'applicationId',
        'bytesIn',
        'bytesOut',
        'date',
        'destination',
        'http',
        'id',
        'instanceId',
        'requestId',
        'source',
        'tls',
        'zone',
      ].sort(),
    );
    expect(data.http.request.path).toBe('/health');
  });

  it('every endpoint the client calls is one the excerpt lists', async () => {
    const calls: CallRecord[] = [];
    const client = new CleverClient({
      credentials: operatorCredentials(
        { kind: 'oauth1', token: DEMO_CREDENTIALS.oauth.token, secret: DEMO_CREDENTIALS.oauth.secret },
        {
          consumerKey: DEMO_CREDENTIALS.oauth.consumerKey,
          consumerSecret: DEMO_CREDENTIALS.oauth.consumerSecret,
        },
      ),
      apiHost: sim.url,
      onCall: (c) => calls.push(c),
    });
    await client.listOwners();
    await client.listApplications(orgId);
    await client.getApplication(orgId, appId);
    await client.listDeployments(orgId, appId);
    const { deploymentId } = await client.startApplication(orgId, appId);
    await client.getDeployment(orgId, appId, deploymentId!);
    await client.stopApplication(orgId, appId);
    await client.listVhosts(orgId, appId);
    const listed = new Set(
      Object.values(endpoints).map((e) => `${e.method.toUpperCase()} ${e.normalizedPath}`),
    );
    const unlisted = [...new Set(calls.map((c) => c.endpoint))].filter((e) => !listed.has(e));
    expect(unlisted).toEqual([]);
  });
});
