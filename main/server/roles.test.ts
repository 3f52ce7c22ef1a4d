/**
 * Roles on every call of the contract (issue 25): generated from CALL_SCHEMAS and HTTP_ROUTES, so a
 * call added without a role (or with a route this test cannot build) fails here. Each call is made
 * with no token (401), and with a viewer's, an operator's and an admin's token: allowed (whatever the
 * call then answers, never 401 or 403), or 403 naming the role it needs. The people API too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_NAMES, CALL_SCHEMAS, type CallName } from '../../shared/api.ts';
import { HTTP_ROUTES } from '../../shared/api-http.ts';
import { PEOPLE_ROUTES, type PeopleCall, ROLES, type Role, roleAllows } from '../../shared/people.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';

let server: Headless;
let dataDir: string;
const tokens = {} as Record<Role, string>;
const logs: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-roles-'));
  server = await startHeadless({
    ...TEST_SERVER,
    demo: true,
    dataDir,
    log: (level, message) => logs.push(`[${level}] ${message}`),
  });
  for (const role of ROLES) {
    tokens[role] = (await server.people.createToken({ name: `a-${role}`, role }, 'test')).token;
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A path with each `:param` filled with a value its schema accepts (an id nothing has). */
function pathOf(path: string): string {
  const values: Record<string, string> = {
    appId: 'app_00000000-none',
    routeId: 'route_none',
    ruleId: 'rule_none',
    ownerId: 'orga_none',
    name: 'nobody',
  };
  return path.replace(/:([A-Za-z]+)/g, (_, p: string) => {
    if (!(p in values)) throw new Error(`no value for the path parameter :${p}: add one to this test`);
    return values[p]!;
  });
}

async function send(method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, text };
}

/** A body that reaches the call (it may then refuse it: only the gate's answer is checked here). */
const BODIES: Partial<Record<CallName, unknown>> = {
  bulk: { action: 'reset', appIds: ['app_00000000-none'] },
};

describe('every call of the contract, with each role and without a token', () => {
  it('names a role for each call, one the server knows', () => {
    for (const name of CALL_NAMES) expect(ROLES, name).toContain(CALL_SCHEMAS[name].role);
    expect(Object.keys(HTTP_ROUTES).sort()).toEqual([...CALL_NAMES].sort());
  });

  for (const name of CALL_NAMES) {
    const route = HTTP_ROUTES[name];
    const need = CALL_SCHEMAS[name].role;
    it(`${name} (${route.method} ${route.path}) needs ${need}`, async () => {
      const path = pathOf(route.path);
      const body = route.method === 'GET' ? undefined : (BODIES[name] ?? {});
      const anonymous = await send(route.method, path, null, body);
      expect(anonymous.status).toBe(401);
      const wrong = await send(route.method, path, `${tokens.admin.slice(0, -3)}xyz`, body);
      expect(wrong.status).toBe(401);
      for (const role of ROLES) {
        const answer = await send(route.method, path, tokens[role], body);
        if (roleAllows(role, need)) {
          expect([401, 403], `${role} on ${name}: ${answer.text}`).not.toContain(answer.status);
        } else {
          expect(answer.status, `${role} on ${name}`).toBe(403);
          expect(JSON.parse(answer.text).error.message).toBe(
            `this needs the ${need} role; you are signed in as ${role}`,
          );
        }
      }
    });
  }

  it('a bulk "Disable the reaper" needs admin, as release does', async () => {
    const body = { action: 'release', appIds: ['app_00000000-none'] };
    const operator = await send('POST', HTTP_ROUTES.bulk.path, tokens.operator, body);
    expect(operator.status).toBe(403);
    expect(operator.text).toContain('this needs the admin role');
    expect((await send('POST', HTTP_ROUTES.bulk.path, tokens.admin, body)).status).not.toBe(403);
  });

  for (const call of Object.keys(PEOPLE_ROUTES) as PeopleCall[]) {
    const route = PEOPLE_ROUTES[call];
    if (route.role === null) continue;
    const need = route.role;
    it(`people API: ${call} (${route.method} ${route.path}) needs ${need}`, async () => {
      const path = pathOf(route.path);
      const body = route.method === 'POST' ? { name: 'made-by-walk', role: 'viewer' } : undefined;
      expect((await send(route.method, path, null, body)).status).toBe(401);
      for (const role of ROLES) {
        const answer = await send(route.method, path, tokens[role], body);
        if (roleAllows(role, need))
          expect([401, 403], `${role}: ${answer.text}`).not.toContain(answer.status);
        else expect(answer.status, role).toBe(403);
      }
    });
  }

  it('a viewer sees webhooks by their origin only; an admin sees them whole', async () => {
    const url = 'https://hooks.example.com/services/T000/B000/secret-path-8f3a';
    const saved = await send('PATCH', '/api/settings', tokens.admin, {
      webhooks: [{ url, format: 'slack', events: ['error'] }],
    });
    expect(saved.status).toBe(200);
    const viewer = await send('GET', '/api/settings', tokens.viewer);
    expect(viewer.text).not.toContain('secret-path');
    expect(JSON.parse(viewer.text).webhooks[0].url).toBe('https://hooks.example.com/…');
    const snapshot = await send('GET', '/api/snapshot', tokens.viewer);
    expect(snapshot.text).not.toContain('secret-path');
    expect((await send('GET', '/api/settings', tokens.admin)).text).toContain('secret-path');
  });

  it('logs no token and no hash', async () => {
    const stored = await server.people.store.tokens();
    const text = logs.join('\n');
    for (const token of Object.values(tokens)) expect(text).not.toContain(token.slice(-20));
    for (const t of stored) {
      expect(text).not.toContain(t.hash);
      expect(text).not.toContain(t.salt);
    }
    expect(stored.length).toBeGreaterThanOrEqual(3);
  });
});
