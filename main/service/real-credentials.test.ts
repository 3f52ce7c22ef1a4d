import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors.ts';
import { CLEVER_TOOLS_CONSUMER } from '../clever/credentials.ts';
import { systemClock } from '../engine/clocks.ts';
import { SimulatedCloud } from '../simulator/model.ts';
import { type SimulatorServer, startSimulatorServer } from '../simulator/server.ts';
import { OwnerOnlyFileSecrets, RealCredentials } from './real-credentials.ts';

// The simulator accepts clever-tools' consumer pair, as Clever Cloud does for a `clever login` token.
const ACCOUNT = { token: 'user-token-1234', secret: 'user-secret-5678' };
let sim: SimulatorServer;
let home: string;
beforeEach(async () => {
  const cloud = new SimulatedCloud(systemClock);
  sim = await startSimulatorServer({
    cloud,
    credentials: {
      oauth: {
        consumerKey: CLEVER_TOOLS_CONSUMER.key,
        consumerSecret: CLEVER_TOOLS_CONSUMER.secret,
        ...ACCOUNT,
      },
      apiTokens: ['api-token-abcdef'],
    },
  });
  home = mkdtempSync(join(tmpdir(), 'reaper-creds-'));
});
afterEach(async () => {
  await sim.close();
  rmSync(home, { recursive: true, force: true });
});

function manager(env: NodeJS.ProcessEnv = {}) {
  return new RealCredentials({
    secrets: new OwnerOnlyFileSecrets(join(home, 'data', 'credentials.json')),
    apiUrl: sim.url,
    env,
    platform: 'linux',
    home,
  });
}

function cleverToolsLogin(token = ACCOUNT.token, secret = ACCOUNT.secret) {
  mkdirSync(join(home, '.config', 'clever-cloud'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'clever-cloud', 'clever-tools.json'),
    JSON.stringify({ version: 1, profiles: [{ alias: 'default', token, secret, email: 'op@example.com' }] }),
  );
}

describe('the credentials of a real account', () => {
  it('CLEVER_TOKEN and CLEVER_SECRET open a checked connection, with the account shown', async () => {
    const m = manager({ CLEVER_TOKEN: ACCOUNT.token, CLEVER_SECRET: ACCOUNT.secret });
    const port = await m.open();
    expect(port).not.toBeNull();
    expect((await port!.listOwners())[0]?.name).toBe('Personal space');
    expect(await m.status()).toMatchObject({
      state: 'connected',
      source: 'environment',
      account: 'demo@example.com',
      found: { environment: true, cleverTools: false },
      problem: null,
    });
    expect((await m.status()).unchecked).toBeUndefined();
  });

  it("clever-tools' login is found and used", async () => {
    cleverToolsLogin();
    const m = manager();
    expect(await m.open()).not.toBeNull();
    expect(await m.status()).toMatchObject({
      state: 'connected',
      source: 'clever-tools',
      found: { cleverTools: true },
    });
  });

  it('nothing found: no connection, and why', async () => {
    const m = manager();
    expect(await m.open()).toBeNull();
    expect(await m.status()).toMatchObject({
      state: 'none',
      problem: 'no clever-tools login found (run `clever login`)',
    });
  });

  it('a pasted OAuth token is checked, kept in an owner-only file, and used at the next start', async () => {
    const m = manager();
    await m.connect({ source: 'pasted', token: ACCOUNT.token, secret: ACCOUNT.secret });
    const file = join(home, 'data', 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    cleverToolsLogin('other-token', 'other-secret'); // found later: the operator's choice still wins
    const next = manager();
    expect(await next.open()).not.toBeNull();
    const status = await next.status();
    expect(status).toMatchObject({
      state: 'connected',
      source: 'pasted',
      storage: 'a file only its owner can read',
    });
    expect(JSON.stringify(status)).not.toContain(ACCOUNT.secret);
    expect(JSON.stringify(status)).not.toContain(ACCOUNT.token);
    expect(readFileSync(file, 'utf8')).toContain(ACCOUNT.token);
  });

  it('a pasted API token goes as Bearer', async () => {
    const m = manager();
    const port = await m.connect({ source: 'pasted', token: 'api-token-abcdef' });
    expect((await port.listOwners()).length).toBeGreaterThan(0);
  });

  it('a refused token is an input error naming the field, and nothing is kept', async () => {
    const m = manager();
    const error = await m
      .connect({ source: 'pasted', token: 'nope', secret: 'wrong' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual([
      {
        field: 'token',
        message: 'Clever Cloud refused these credentials (401): check them, or log in again',
      },
    ]);
    expect(await manager().open()).toBeNull();
    expect((await m.status()).state).toBe('invalid');
  });

  it('connecting with a source that has nothing says so', async () => {
    const error = await manager()
      .connect({ source: 'clever-tools' })
      .catch((e: unknown) => e);
    expect((error as InputError).problems[0]).toEqual({
      field: 'source',
      message: 'no usable clever-tools login was found (run `clever login`)',
    });
  });

  it('Clever Cloud unreachable: the credentials are kept and the problem said, not refused', async () => {
    const m = manager({ CLEVER_TOKEN: ACCOUNT.token, CLEVER_SECRET: ACCOUNT.secret });
    sim.faults.push({ kind: 'status', status: 503, count: 20 });
    expect(await m.open()).not.toBeNull();
    expect((await m.status()).problem).toMatch(
      /^the credentials could not be checked yet: Clever Cloud answered 503/,
    );
    // Said as such, so the dashboard warns rather than showing them as good.
    expect((await m.status()).unchecked).toBe(true);
    expect((await m.status()).state).toBe('connected');
  });
});
