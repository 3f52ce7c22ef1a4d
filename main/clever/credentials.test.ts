import { describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  CLEVER_TOOLS_CONSUMER,
  type Credentials,
  cleverToolsConfigDir,
  discoverCredentials,
  operatorCredentials,
  redact,
} from './credentials.ts';

const HOME = '/home/op';
const files = (map: Record<string, string>) => async (file: string) => {
  const text = map[file];
  if (text === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  return text;
};
const linuxFile = '/home/op/.config/clever-cloud/clever-tools.json';

describe('where credentials are found', () => {
  it('CLEVER_TOKEN and CLEVER_SECRET come first, with the default consumer pair and API host', async () => {
    const found = await discoverCredentials({
      env: { CLEVER_TOKEN: 'env-token', CLEVER_SECRET: 'env-secret' },
      platform: 'linux',
      home: HOME,
      read: files({ [linuxFile]: JSON.stringify({ token: 'file-token', secret: 'file-secret' }) }),
    });
    expect(found.credentials).toMatchObject({
      kind: 'oauth1',
      token: 'env-token',
      secret: 'env-secret',
      consumerKey: CLEVER_TOOLS_CONSUMER.key,
      apiHost: 'https://api.clever-cloud.com',
      source: 'environment',
    });
  });

  it('one of the two variables alone is ignored, with a note', async () => {
    const found = await discoverCredentials({
      env: { CLEVER_TOKEN: 'x' },
      platform: 'linux',
      home: HOME,
      read: files({}),
    });
    expect(found.credentials).toBeNull();
    expect(found.notes).toContain('CLEVER_TOKEN and CLEVER_SECRET must both be set; ignored');
  });

  it("clever-tools' profile format: the first profile, with its overrides", async () => {
    const file = {
      version: 1,
      profiles: [
        {
          alias: 'work',
          token: 'p-token',
          secret: 'p-secret',
          email: 'op@example.com',
          overrides: {
            API_HOST: 'https://api.example.test',
            OAUTH_CONSUMER_KEY: 'ck',
            OAUTH_CONSUMER_SECRET: 'cs',
          },
        },
        { alias: 'other', token: 'o', secret: 'o' },
      ],
    };
    const found = await discoverCredentials({
      env: {},
      platform: 'linux',
      home: HOME,
      read: files({ [linuxFile]: JSON.stringify(file) }),
    });
    expect(found.credentials).toMatchObject({
      token: 'p-token',
      secret: 'p-secret',
      consumerKey: 'ck',
      consumerSecret: 'cs',
      apiHost: 'https://api.example.test',
      source: 'clever-tools',
      detail: 'clever-tools profile work (op@example.com)',
    });
  });

  it("clever-tools' legacy format", async () => {
    const found = await discoverCredentials({
      env: {},
      platform: 'linux',
      home: HOME,
      read: files({
        [linuxFile]: JSON.stringify({ token: 'l-token', secret: 'l-secret', expirationDate: '2099-01-01' }),
      }),
    });
    expect(found.credentials).toMatchObject({
      token: 'l-token',
      secret: 'l-secret',
      detail: 'clever-tools login (legacy format)',
    });
  });

  it('an expired login is not used, and says so', async () => {
    const found = await discoverCredentials({
      env: {},
      platform: 'linux',
      home: HOME,
      read: files({
        [linuxFile]: JSON.stringify({ token: 't', secret: 's', expirationDate: '2020-01-01T00:00:00Z' }),
      }),
    });
    expect(found.credentials).toBeNull();
    expect(found.notes).toContain('the clever-tools login has expired (run `clever login` again)');
  });

  it('a broken login file is reported, never thrown', async () => {
    const found = await discoverCredentials({
      env: {},
      platform: 'linux',
      home: HOME,
      read: files({ [linuxFile]: '{oops' }),
    });
    expect(found.notes).toContain('the clever-tools login file could not be used: it is not valid JSON');
  });

  it('a token given in the app comes last', async () => {
    const operator = operatorCredentials({ kind: 'api-token', token: 'api-tok' });
    const alone = await discoverCredentials({
      env: {},
      platform: 'linux',
      home: HOME,
      read: files({}),
      operator,
    });
    expect(alone.credentials).toMatchObject({
      kind: 'api-token',
      apiHost: 'https://api-bridge.clever-cloud.com',
    });
    const behindLogin = await discoverCredentials({
      env: {},
      platform: 'linux',
      home: HOME,
      operator,
      read: files({ [linuxFile]: JSON.stringify({ token: 't', secret: 's' }) }),
    });
    expect(behindLogin.credentials?.source).toBe('clever-tools');
  });

  it('API_HOST in the environment and the flag set the base URL', async () => {
    const env = { CLEVER_TOKEN: 't', CLEVER_SECRET: 's', API_HOST: 'http://127.0.0.1:9999' };
    const fromEnv = await discoverCredentials({ env, platform: 'linux', home: HOME, read: files({}) });
    expect(fromEnv.credentials?.apiHost).toBe('http://127.0.0.1:9999');
    const fromFlag = await discoverCredentials({
      env,
      platform: 'linux',
      home: HOME,
      read: files({}),
      apiHost: 'http://x',
    });
    expect(fromFlag.credentials?.apiHost).toBe('http://x');
  });

  it.each([
    ['linux', {}, '/home/op/.config/clever-cloud'],
    ['linux', { XDG_CONFIG_HOME: '/xdg' }, '/xdg/clever-cloud'],
    ['darwin', {}, '/home/op/.config/clever-cloud'],
    ['win32', { APPDATA: 'C:\\Users\\op\\AppData\\Roaming' }, 'clever-cloud'],
  ] as const)('the login folder on %s (%j)', (platform, env, expected) => {
    expect(cleverToolsConfigDir(env, platform, HOME)).toContain(expected);
  });
});

describe('how credentials are sent', () => {
  it('OAuth1 PLAINTEXT as clever-tools sends it: consumer secret, %26, token secret', () => {
    const c = operatorCredentials(
      { kind: 'oauth1', token: 'tok', secret: 'sec' },
      { consumerKey: 'ck', consumerSecret: 'cs' },
    );
    expect(authorizationHeader(c)).toBe(
      'OAuth oauth_consumer_key="ck", oauth_token="tok", oauth_signature="cs%26sec"',
    );
  });

  it('API tokens as Bearer', () => {
    expect(authorizationHeader(operatorCredentials({ kind: 'api-token', token: 'abc' }))).toBe('Bearer abc');
  });

  it('redaction removes the token and both secrets from any text', () => {
    const c: Credentials = operatorCredentials({ kind: 'oauth1', token: 'tok-1234', secret: 'sec-5678' });
    const text = `failed with tok-1234 and sec-5678 and ${CLEVER_TOOLS_CONSUMER.secret}`;
    expect(redact(text, c)).toBe('failed with [redacted] and [redacted] and [redacted]');
  });
});
