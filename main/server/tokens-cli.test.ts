/**
 * `serve -- tokens create|list|revoke` on a data folder (people.sqlite): the token printed once and
 * working against a server on that folder, listed without its secret, refused once revoked.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../testing/serve-process.ts';
import { TEST_SERVER } from '../testing/test-server.ts';
import { type Headless, startHeadless } from './headless.ts';
import { runTokens } from './tokens-cli.ts';

let dataDir: string;
let server: Headless;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reaper-tokens-'));
  server = await startHeadless({ ...TEST_SERVER, demo: true, dataDir });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function tokens(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runTokens([...argv, '--data-dir', dataDir], {}, () => dataDir, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const status = async (token: string) =>
  (await fetch(`${server.url}/api/status`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('tokens commands', () => {
  it('creates a token printed once, lists it without its secret, and revokes it', async () => {
    const created = await tokens('create', '--name', 'alice', '--role', 'operator', '--expires', '30d');
    expect(created.code).toBe(0);
    const token = /^crp_[0-9a-f]{16}_\S{43}$/m.exec(created.out)?.[0];
    expect(token, created.out).toBeDefined();
    expect(created.out).toMatch(/Token for alice \(operator\), expires 20\d\d-/);
    expect(await status(token!)).toBe(200);

    const listed = await tokens('list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^alice\s+operator\s+created .* by bootstrap\s+expires 20\d\d-.*live$/m);
    expect(listed.out).not.toContain(token!.slice(-20));
    // The file keeps a hash, never the token's secret.
    expect(readFileSync(join(dataDir, 'people.sqlite')).includes(token!.slice(-20))).toBe(false);

    const again = await tokens('create', '--name', 'alice', '--role', 'viewer');
    expect(again.code).toBe(1);
    expect(again.err).toContain("a token named 'alice' exists: revoke it first");

    const revoked = await tokens('revoke', 'alice');
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain('Revoked alice (operator)');
    // Another process revoked it: the server takes at most a second to see it (no bus on SQLite).
    await until('the revoked token refused', 10_000, async () => (await status(token!)) === 401);
    expect((await tokens('list')).out).toMatch(/^alice .* revoked 20\d\d-/m);
    expect((await tokens('revoke', 'alice')).err).toContain("a live token named 'alice' not found");
  });

  it('says what is wrong with a command', async () => {
    expect((await tokens('create', '--name', 'bob', '--role', 'boss')).err).toContain(
      '--role: one of viewer, operator, admin',
    );
    expect((await tokens('create', '--name', 'Bad Name!', '--role', 'viewer')).err).toContain('--name:');
    expect((await tokens('create', '--name', 'bob', '--role', 'viewer', '--expires', 'soon')).err).toContain(
      "'soon' is not a duration",
    );
    expect((await tokens('fly')).code).toBe(2);
  });
});
