import { describe, expect, it } from 'vitest';
import {
  CLEVER_TOOLS_CONSUMER,
  cleverToolsCredentials,
  DEFAULT_API_HOST,
  DEFAULT_BRIDGE_HOST,
  discoverCredentials,
  environmentCredentials,
  operatorCredentials,
  resolveEndpoints,
} from './credentials.ts';

const HOME = '/home/op';
const LOGIN = '/home/op/.config/clever-cloud/clever-tools.json';
const files = (map: Record<string, string>) => async (file: string) => {
  const text = map[file];
  if (text === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  return text;
};
const profile = (overrides: Record<string, string> = {}) =>
  JSON.stringify({
    version: 1,
    profiles: [{ alias: 'work', token: 'p-token', secret: 'p-secret', overrides }],
  });

describe('the endpoints, resolved once', () => {
  it("Clever Cloud's hosts and clever-tools' consumer when nothing is set", () => {
    expect(resolveEndpoints({})).toEqual({
      apiHost: DEFAULT_API_HOST,
      bridgeHost: DEFAULT_BRIDGE_HOST,
      consumerKey: CLEVER_TOOLS_CONSUMER.key,
      consumerSecret: CLEVER_TOOLS_CONSUMER.secret,
      pinned: false,
      fixed: new Set(),
    });
  });

  it('API_HOST moves the API only, AUTH_BRIDGE_HOST the bridge only; the flag both', () => {
    const env = { API_HOST: 'http://from-env' };
    expect(resolveEndpoints(env)).toMatchObject({
      apiHost: 'http://from-env',
      bridgeHost: DEFAULT_BRIDGE_HOST,
    });
    expect(resolveEndpoints({ AUTH_BRIDGE_HOST: 'http://bridge' })).toMatchObject({
      apiHost: DEFAULT_API_HOST,
      bridgeHost: 'http://bridge',
    });
    expect(resolveEndpoints(env, 'http://flag')).toMatchObject({
      apiHost: 'http://flag',
      bridgeHost: 'http://flag',
      pinned: true,
    });
  });

  it('each consumer variable on its own, as clever-tools reads them', () => {
    expect(resolveEndpoints({ OAUTH_CONSUMER_KEY: 'ck' })).toMatchObject({
      consumerKey: 'ck',
      consumerSecret: CLEVER_TOOLS_CONSUMER.secret,
    });
  });
});

describe('one finder per source', () => {
  const endpoints = resolveEndpoints({ OAUTH_CONSUMER_KEY: 'ck', OAUTH_CONSUMER_SECRET: 'cs' });

  it('the environment: both variables, signed with the resolved consumer', () => {
    const found = environmentCredentials({ CLEVER_TOKEN: 't', CLEVER_SECRET: 's' }, endpoints);
    expect(found.credentials).toMatchObject({
      source: 'environment',
      consumerKey: 'ck',
      consumerSecret: 'cs',
    });
    expect(environmentCredentials({}, endpoints)).toEqual({ credentials: null, note: null });
  });

  it('the clever-tools file, whatever the environment holds', async () => {
    const env = { CLEVER_TOKEN: 'env-token', CLEVER_SECRET: 'env-secret' };
    const where = { env, platform: 'linux' as const, home: HOME, read: files({ [LOGIN]: profile() }) };
    const found = await cleverToolsCredentials(where, endpoints);
    expect(found.credentials).toMatchObject({ source: 'clever-tools', token: 'p-token', consumerKey: 'ck' });
    const none = await cleverToolsCredentials({ ...where, read: files({}) }, endpoints);
    expect(none).toEqual({ credentials: null, note: 'no clever-tools login found (run `clever login`)' });
  });

  it("a profile's API_HOST, unless the flag named the API", async () => {
    const where = { env: {}, platform: 'linux' as const, home: HOME };
    const read = files({ [LOGIN]: profile({ API_HOST: 'https://api.profile.test' }) });
    const own = await cleverToolsCredentials({ ...where, read }, resolveEndpoints({}));
    expect(own.credentials?.apiHost).toBe('https://api.profile.test');
    const pinned = await discoverCredentials({ ...where, read, apiHost: 'http://127.0.0.1:9999' });
    expect(pinned.credentials?.apiHost).toBe('http://127.0.0.1:9999');
  });

  it('a pasted token with the same endpoints: an OAuth token to the API, an API token to the bridge', () => {
    const flagged = resolveEndpoints({ OAUTH_CONSUMER_KEY: 'ck' }, 'http://flag');
    expect(operatorCredentials({ kind: 'oauth1', token: 't', secret: 's' }, flagged)).toMatchObject({
      apiHost: 'http://flag',
      consumerKey: 'ck',
      consumerSecret: CLEVER_TOOLS_CONSUMER.secret,
    });
    expect(operatorCredentials({ kind: 'api-token', token: 't' }, resolveEndpoints({}))).toMatchObject({
      apiHost: DEFAULT_BRIDGE_HOST,
    });
  });
});
