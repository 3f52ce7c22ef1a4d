/**
 * Which host gets which Authorization header, with clever-tools' rules (src/config/config.js:
 * environment > active profile overrides > defaults; API_HOST and AUTH_BRIDGE_HOST two settings):
 * real login files in a temporary HOME or at CONFIGURATION_FILE, and one loopback server per host.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CLEVER_TOOLS_CONSUMER,
  DEFAULT_BRIDGE_HOST,
  operatorCredentials,
  resolveEndpoints,
} from '../clever/credentials.ts';
import { OwnerOnlyFileSecrets, RealCredentials } from './real-credentials.ts';

interface Host {
  url: string;
  /** The Authorization header of each request this host received. */
  seen: string[];
  server: Server;
}

async function recordingHost(): Promise<Host> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(String(req.headers.authorization ?? ''));
    if (req.url?.startsWith('/v2/self')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'user_1', name: 'Op', email: 'op@example.com' }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"id":404,"message":"Not Found","type":"error"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, server };
}

let api: Host;
let bridge: Host;
let decoy: Host;
let home: string;
beforeEach(async () => {
  [api, bridge, decoy] = await Promise.all([recordingHost(), recordingHost(), recordingHost()]);
  home = mkdtempSync(join(tmpdir(), 'reaper-hosts-'));
});
afterEach(async () => {
  for (const h of [api, bridge, decoy]) {
    h.server.closeAllConnections();
    await new Promise<void>((resolve) => h.server.close(() => resolve()));
  }
  rmSync(home, { recursive: true, force: true });
});

function manager(env: NodeJS.ProcessEnv) {
  return new RealCredentials({
    secrets: new OwnerOnlyFileSecrets(join(home, 'data', 'credentials.json')),
    apiUrl: null,
    env,
    platform: 'linux',
    home,
  });
}

function writeLogin(file: string, token: string, overrides: Record<string, string> = {}) {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      profiles: [{ alias: 'work', token, secret: `${token}-secret`, overrides }],
    }),
  );
}
const defaultLogin = () => join(home, '.config', 'clever-cloud', 'clever-tools.json');
const oauth = (key: string, token: string, consumerSecret: string, secret: string) =>
  `OAuth oauth_consumer_key="${key}", oauth_token="${token}", oauth_signature="${consumerSecret}%26${secret}"`;

describe('API_HOST and AUTH_BRIDGE_HOST kept apart', () => {
  it('an API token goes to AUTH_BRIDGE_HOST only, an OAuth token to API_HOST only', async () => {
    const env = { API_HOST: api.url, AUTH_BRIDGE_HOST: bridge.url };
    await manager(env).connect({ source: 'pasted', token: 'api-token-1' });
    expect(bridge.seen).toEqual(['Bearer api-token-1']);
    expect(api.seen).toEqual([]);

    await manager(env).connect({ source: 'pasted', token: 'oauth-token', secret: 'oauth-secret' });
    expect(api.seen).toEqual([
      oauth(CLEVER_TOOLS_CONSUMER.key, 'oauth-token', CLEVER_TOOLS_CONSUMER.secret, 'oauth-secret'),
    ]);
    expect(bridge.seen).toEqual(['Bearer api-token-1']);
  });

  it("API_HOST alone never sends an API token to the main API: it goes to Clever Cloud's bridge", () => {
    const endpoints = resolveEndpoints({ API_HOST: api.url });
    expect(operatorCredentials({ kind: 'api-token', token: 't' }, endpoints).apiHost).toBe(
      DEFAULT_BRIDGE_HOST,
    );
    expect(operatorCredentials({ kind: 'oauth1', token: 't', secret: 's' }, endpoints).apiHost).toBe(api.url);
  });

  it("a profile's AUTH_BRIDGE_HOST never takes its OAuth token to the bridge", async () => {
    writeLogin(defaultLogin(), 'profile-token', { API_HOST: api.url, AUTH_BRIDGE_HOST: bridge.url });
    expect(await manager({}).open()).not.toBeNull();
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]).toContain('oauth_token="profile-token"');
    expect(bridge.seen).toEqual([]);
  });
});

describe("the environment beats a profile's overrides", () => {
  it('API_HOST and the consumer pair from the environment, the token from the profile', async () => {
    writeLogin(defaultLogin(), 'profile-token', {
      API_HOST: decoy.url,
      OAUTH_CONSUMER_KEY: 'profile-ck',
      OAUTH_CONSUMER_SECRET: 'profile-cs',
    });
    const env = { API_HOST: api.url, OAUTH_CONSUMER_KEY: 'env-ck', OAUTH_CONSUMER_SECRET: 'env-cs' };
    expect(await manager(env).open()).not.toBeNull();
    expect(api.seen).toEqual([oauth('env-ck', 'profile-token', 'env-cs', 'profile-token-secret')]);
    expect(decoy.seen).toEqual([]);
  });

  it('each override the environment leaves unset still applies', async () => {
    writeLogin(defaultLogin(), 'profile-token', { API_HOST: api.url, OAUTH_CONSUMER_KEY: 'profile-ck' });
    expect(await manager({ OAUTH_CONSUMER_SECRET: 'env-cs' }).open()).not.toBeNull();
    expect(api.seen).toEqual([oauth('profile-ck', 'profile-token', 'env-cs', 'profile-token-secret')]);
  });
});

describe('CONFIGURATION_FILE', () => {
  it('names the login file read, instead of the one in the OS folder', async () => {
    writeLogin(defaultLogin(), 'folder-token', { API_HOST: decoy.url });
    const elsewhere = join(home, 'elsewhere', 'my-clever.json');
    writeLogin(elsewhere, 'named-token', { API_HOST: api.url });
    const m = manager({ CONFIGURATION_FILE: elsewhere });
    expect(await m.open()).not.toBeNull();
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]).toContain('oauth_token="named-token"');
    expect(decoy.seen).toEqual([]);
    expect(await m.status()).toMatchObject({ source: 'clever-tools', found: { cleverTools: true } });
  });

  it('a CONFIGURATION_FILE that does not exist is no login, even with one in the OS folder', async () => {
    writeLogin(defaultLogin(), 'folder-token', { API_HOST: decoy.url });
    const m = manager({ CONFIGURATION_FILE: join(home, 'missing.json') });
    expect(await m.open()).toBeNull();
    expect(decoy.seen).toEqual([]);
    expect((await m.status()).problem).toContain('no clever-tools login found');
  });
});
