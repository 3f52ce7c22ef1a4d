/**
 * The desktop's view of a team server with a person's own token (the parts that need no Electron:
 * Electron cannot run here, so the window showing it is not tested): who the token is, and the
 * calls it makes named as the desktop's in the audit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/people.ts';
import { type Headless, startHeadless } from '../server/headless.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { checkTeamServer, teamIdentity } from './remote-service.ts';

let server: Headless;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-desktop-people-'));
  server = await startHeadless({ ...TEST_SERVER, demo: true, dataDir });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a desktop on a team server with its own token', () => {
  it('knows who it is signed in as, with which role; a revoked token is refused', async () => {
    const { token } = await server.people.createToken({ name: 'vera', role: 'viewer' }, 'test');
    expect(await checkTeamServer(server.url, token)).toBeNull();
    expect(await teamIdentity(server.url, token)).toEqual({ name: 'vera', role: 'viewer' });
    expect(await teamIdentity(server.url, server.token.token)).toEqual({ name: 'bootstrap', role: 'admin' });
    await server.people.revokeToken('vera');
    expect(await teamIdentity(server.url, token)).toBeNull();
    expect(await checkTeamServer(server.url, token)).toBe('The team server refused this admin token');
  });

  it("names the desktop in the audit of an admin's change", async () => {
    const { token } = await server.people.createToken({ name: 'dora', role: 'admin' }, 'test');
    const res = await fetch(`${server.url}/api/settings`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-reaper-via': 'desktop',
      },
      body: JSON.stringify({ dryRun: true }),
    });
    expect(res.status).toBe(200);
    const audit = (await (
      await fetch(`${server.url}/api/audit?what=dryRun`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as AuditEntry[];
    expect(audit[0]).toMatchObject({ by: 'dora', via: 'desktop', before: false, after: true });
  });
});
