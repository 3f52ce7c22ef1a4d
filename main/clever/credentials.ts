/**
 * Clever Cloud credentials: where they are found, in order, and how they are sent.
 *
 * 1. `CLEVER_TOKEN` + `CLEVER_SECRET` in the environment (as clever-tools reads them);
 * 2. clever-tools' login file, CONFIGURATION_FILE or `clever-tools.json` in the clever-cloud config
 *    folder of the OS, in its profile format (`{version: 1, profiles: [...]}`, the first profile active) or its legacy format
 *    (`{token, secret, expirationDate}`);
 * 3. a token the operator gave the app (an OAuth token and secret, or an API token).
 *
 * One finder per source (environmentCredentials, cleverToolsCredentials, operatorCredentials), all
 * given the same endpoints: the API hosts and the OAuth consumer, worked out once (resolveEndpoints).
 *
 * OAuth tokens go as an OAuth 1.0a PLAINTEXT header with a consumer pair; the default pair is the
 * public one clever-tools ships (its source says the disclosure is not a vulnerability), because a
 * token from `clever login` only works with it. API tokens go as Bearer to the api-bridge host
 * (AUTH_BRIDGE_HOST), OAuth tokens to the API host (API_HOST): the two are never mixed.
 *
 * Nothing here ever logs or returns a secret in a message.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { redactSecrets, type SecretSet } from './redaction.ts';

export const DEFAULT_API_HOST = 'https://api.clever-cloud.com';
export const DEFAULT_BRIDGE_HOST = 'https://api-bridge.clever-cloud.com';
/** clever-tools' public OAuth consumer pair (src/config/config.js of clever-tools). */
export const CLEVER_TOOLS_CONSUMER = {
  key: 'T5nFjKeHH4AIlEveuGhB5S3xg8T19e',
  secret: 'MgVMqTr6fWlf2M0tkC2MXOnhfqBWDT',
};

export type CredentialSource = 'environment' | 'clever-tools' | 'operator' | 'demo';

export type Credentials =
  | {
      kind: 'oauth1';
      token: string;
      secret: string;
      consumerKey: string;
      consumerSecret: string;
      /** The API base URL that goes with these credentials (a profile's API_HOST override). */
      apiHost: string;
      source: CredentialSource;
      /** What to show the operator: where they came from (never the secret). */
      detail: string;
      expiresAt: number | null;
    }
  | {
      kind: 'api-token';
      token: string;
      apiHost: string;
      source: CredentialSource;
      detail: string;
      expiresAt: number | null;
    };

/** The Authorization header for a call: OAuth1 PLAINTEXT as clever-tools sends it, or Bearer. */
export function authorizationHeader(credentials: Credentials): string {
  if (credentials.kind === 'api-token') return `Bearer ${credentials.token}`;
  const { consumerKey, consumerSecret, token, secret } = credentials;
  const signature = `${encodeURIComponent(consumerSecret)}%26${encodeURIComponent(secret)}`;
  return `OAuth oauth_consumer_key="${consumerKey}", oauth_token="${token}", oauth_signature="${signature}"`;
}

/** The folder clever-tools keeps its login in, for this OS. */
export function cleverToolsConfigDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string,
): string {
  if (platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'clever-cloud');
  const xdg = env.XDG_CONFIG_HOME?.trim();
  return join(xdg ? xdg : join(home, '.config'), 'clever-cloud');
}

const overridesSchema = z
  .object({
    API_HOST: z.url().optional(),
    AUTH_BRIDGE_HOST: z.url().optional(),
    OAUTH_CONSUMER_KEY: z.string().min(1).optional(),
    OAUTH_CONSUMER_SECRET: z.string().min(1).optional(),
  })
  .passthrough();

const profileSchema = z
  .object({
    alias: z.string().optional(),
    token: z.string().min(1),
    secret: z.string().min(1),
    expirationDate: z.union([z.string(), z.number()]).optional(),
    email: z.string().optional(),
    userId: z.string().optional(),
    overrides: overridesSchema.optional(),
  })
  .passthrough();

const profileFileSchema = z.object({ version: z.number(), profiles: z.array(profileSchema) }).passthrough();
const legacyFileSchema = z
  .object({
    token: z.string().min(1),
    secret: z.string().min(1),
    expirationDate: z.union([z.string(), z.number()]).optional(),
  })
  .passthrough();

function parseExpiry(value: string | number | undefined): number | null {
  if (value === undefined) return null;
  const t = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(t) ? t : null;
}

/** The settings clever-tools reads from its environment and from a profile's `overrides`. */
export type EndpointSetting =
  | 'API_HOST'
  | 'AUTH_BRIDGE_HOST'
  | 'OAUTH_CONSUMER_KEY'
  | 'OAUTH_CONSUMER_SECRET';

/**
 * Where the calls go and the OAuth consumer they are signed with, worked out once from the flag and
 * the environment, the way clever-tools reads them (clever-tools src/config/config.js, loadConfig:
 * "environment variables > active profile overrides > Zod schema defaults").
 *
 * The main API and the api-bridge are two settings, as in clever-tools (API_HOST and
 * AUTH_BRIDGE_HOST; src/models/send-to-api.js sends to the bridge with AUTH_BRIDGE_HOST only): OAuth
 * tokens go to the API, API tokens (Bearer) to the bridge, and API_HOST never moves the bridge.
 */
export interface CleverEndpoints {
  /** The API base URL: the flag (--api-url or a setting), else API_HOST, else Clever Cloud's. */
  apiHost: string;
  /** Where API tokens go: the flag, else AUTH_BRIDGE_HOST, else Clever Cloud's api-bridge. */
  bridgeHost: string;
  consumerKey: string;
  consumerSecret: string;
  /** The flag named the API: it wins over the API_HOST of a clever-tools profile. */
  pinned: boolean;
  /** The settings the environment (or the flag) gave: a profile's override of these is not used. */
  fixed: ReadonlySet<EndpointSetting>;
}

export function resolveEndpoints(env: NodeJS.ProcessEnv, apiUrl?: string | null): CleverEndpoints {
  const flag = apiUrl || null;
  const fixed = new Set<EndpointSetting>();
  for (const name of [
    'API_HOST',
    'AUTH_BRIDGE_HOST',
    'OAUTH_CONSUMER_KEY',
    'OAUTH_CONSUMER_SECRET',
  ] as const) {
    if (env[name]) fixed.add(name);
  }
  if (flag) {
    fixed.add('API_HOST');
    fixed.add('AUTH_BRIDGE_HOST');
  }
  return {
    apiHost: flag ?? (env.API_HOST || DEFAULT_API_HOST),
    bridgeHost: flag ?? (env.AUTH_BRIDGE_HOST || DEFAULT_BRIDGE_HOST),
    consumerKey: env.OAUTH_CONSUMER_KEY || CLEVER_TOOLS_CONSUMER.key,
    consumerSecret: env.OAUTH_CONSUMER_SECRET || CLEVER_TOOLS_CONSUMER.secret,
    pinned: Boolean(flag),
    fixed,
  };
}

/** A profile's override of a setting, unless the environment or the flag gave that setting. */
function overridden(
  endpoints: CleverEndpoints,
  name: EndpointSetting,
  override: string | undefined,
  resolved: string,
): string {
  return override && !endpoints.fixed.has(name) ? override : resolved;
}

/** What one source yields: credentials, or why it has none (null: nothing worth saying). */
export interface Found {
  credentials: Credentials | null;
  note: string | null;
}

/** Source 1: CLEVER_TOKEN and CLEVER_SECRET in the environment (both, as clever-tools reads them). */
export function environmentCredentials(env: NodeJS.ProcessEnv, endpoints: CleverEndpoints): Found {
  if (env.CLEVER_TOKEN && env.CLEVER_SECRET) {
    return {
      credentials: {
        kind: 'oauth1',
        token: env.CLEVER_TOKEN,
        secret: env.CLEVER_SECRET,
        consumerKey: endpoints.consumerKey,
        consumerSecret: endpoints.consumerSecret,
        apiHost: endpoints.apiHost,
        source: 'environment',
        detail: 'CLEVER_TOKEN and CLEVER_SECRET',
        expiresAt: null,
      },
      note: null,
    };
  }
  const half = env.CLEVER_TOKEN || env.CLEVER_SECRET;
  return {
    credentials: null,
    note: half ? 'CLEVER_TOKEN and CLEVER_SECRET must both be set; ignored' : null,
  };
}

/**
 * Where clever-tools' login file is looked for: CONFIGURATION_FILE when the environment names it (as
 * clever-tools reads it, src/config/config.js), else clever-tools.json in the folder of this OS.
 */
export interface LoginFileLocation {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
  read?: ((file: string) => Promise<string>) | undefined;
}

/** The path of clever-tools' login file: CONFIGURATION_FILE, else the file in the OS's folder. */
export function cleverToolsLoginFile(where: LoginFileLocation): string {
  const named = where.env.CONFIGURATION_FILE?.trim();
  if (named) return named;
  return join(cleverToolsConfigDir(where.env, where.platform, where.home), 'clever-tools.json');
}

/** Source 2: clever-tools' login file, unless it is missing, unreadable or expired. */
export async function cleverToolsCredentials(
  where: LoginFileLocation,
  endpoints: CleverEndpoints,
): Promise<Found> {
  const file = cleverToolsLoginFile(where);
  const read = where.read ?? ((f: string) => readFile(f, 'utf8'));
  let text: string;
  try {
    text = await read(file);
  } catch {
    return { credentials: null, note: 'no clever-tools login found (run `clever login`)' };
  }
  const found = parseCleverToolsFile(text, endpoints);
  if (!('credentials' in found)) {
    return { credentials: null, note: `the clever-tools login file could not be used: ${found.problem}` };
  }
  if (found.credentials.expiresAt !== null && found.credentials.expiresAt < Date.now()) {
    return { credentials: null, note: 'the clever-tools login has expired (run `clever login` again)' };
  }
  return { credentials: found.credentials, note: null };
}

export interface DiscoveryInput extends LoginFileLocation {
  /** API base URL override (flag or setting); `API_HOST` in the environment otherwise. */
  apiHost?: string | undefined;
  /** The endpoints already resolved (by a caller that resolves them once); else from env + apiHost. */
  endpoints?: CleverEndpoints;
  /** A token the operator gave the app, if any. */
  operator?: Credentials | null;
}

export interface Discovery {
  credentials: Credentials | null;
  /** Why each source was or was not used, for the dashboard's credentials status. */
  notes: string[];
}

/** Find credentials in the documented order; never throws for a missing or broken file. */
export async function discoverCredentials(input: DiscoveryInput): Promise<Discovery> {
  const endpoints = input.endpoints ?? resolveEndpoints(input.env, input.apiHost);
  const notes: string[] = [];
  const fromEnv = environmentCredentials(input.env, endpoints);
  if (fromEnv.credentials) return { credentials: fromEnv.credentials, notes };
  if (fromEnv.note) notes.push(fromEnv.note);
  const fromFile = await cleverToolsCredentials(input, endpoints);
  if (fromFile.credentials) {
    if (input.operator) notes.push('the clever-tools login comes before the token given in the app');
    return { credentials: fromFile.credentials, notes };
  }
  if (fromFile.note) notes.push(fromFile.note);
  return { credentials: input.operator ?? null, notes };
}

export function parseCleverToolsFile(
  text: string,
  defaults: CleverEndpoints,
): { credentials: Credentials } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'it is not valid JSON' };
  }
  const profiles = profileFileSchema.safeParse(json);
  if (profiles.success) {
    const active = profiles.data.profiles[0];
    if (!active) return { problem: 'it holds no profile' };
    const o = active.overrides ?? {};
    return {
      credentials: {
        kind: 'oauth1',
        token: active.token,
        secret: active.secret,
        consumerKey: overridden(defaults, 'OAUTH_CONSUMER_KEY', o.OAUTH_CONSUMER_KEY, defaults.consumerKey),
        consumerSecret: overridden(
          defaults,
          'OAUTH_CONSUMER_SECRET',
          o.OAUTH_CONSUMER_SECRET,
          defaults.consumerSecret,
        ),
        // An OAuth token goes to the main API, never to the bridge (AUTH_BRIDGE_HOST is for API tokens).
        apiHost: overridden(defaults, 'API_HOST', o.API_HOST, defaults.apiHost),
        source: 'clever-tools',
        detail: `clever-tools profile ${active.alias ?? 'default'}${active.email ? ` (${active.email})` : ''}`,
        expiresAt: parseExpiry(active.expirationDate),
      },
    };
  }
  const legacy = legacyFileSchema.safeParse(json);
  if (legacy.success) {
    return {
      credentials: {
        kind: 'oauth1',
        token: legacy.data.token,
        secret: legacy.data.secret,
        consumerKey: defaults.consumerKey,
        consumerSecret: defaults.consumerSecret,
        apiHost: defaults.apiHost,
        source: 'clever-tools',
        detail: 'clever-tools login (legacy format)',
        expiresAt: parseExpiry(legacy.data.expirationDate),
      },
    };
  }
  return { problem: 'it holds neither a profile nor a token and secret' };
}

/**
 * Source 3: what the operator pasted, an OAuth token + secret or an API token (with the resolved
 * endpoints as options; each one left out takes Clever Cloud's default).
 */
export function operatorCredentials(
  input: { kind: 'oauth1'; token: string; secret: string } | { kind: 'api-token'; token: string },
  options: { apiHost?: string; bridgeHost?: string; consumerKey?: string; consumerSecret?: string } = {},
): Credentials {
  const defaults = resolveEndpoints({});
  if (input.kind === 'api-token') {
    return {
      kind: 'api-token',
      token: input.token,
      apiHost: options.bridgeHost ?? defaults.bridgeHost,
      source: 'operator',
      detail: 'an API token given in the app',
      expiresAt: null,
    };
  }
  return {
    kind: 'oauth1',
    token: input.token,
    secret: input.secret,
    consumerKey: options.consumerKey ?? defaults.consumerKey,
    consumerSecret: options.consumerSecret ?? defaults.consumerSecret,
    apiHost: options.apiHost ?? defaults.apiHost,
    source: 'operator',
    detail: 'an OAuth token given in the app',
    expiresAt: null,
  };
}

/**
 * Replace every credential value in `text` by a placeholder (for logs and error messages): exact
 * copies, and any piece of 8 characters or more in any case, percent-encoded, hex or base64, of each
 * secret and of the concatenations an authorization is made of (redaction.ts).
 */
export function redact(text: string, credentials: Credentials | null): string {
  return credentials ? redactSecrets(text, secretSetOf(credentials)) : text;
}

/** The secrets of credentials, with the concatenations sent on the wire (one set per credentials). */
export function secretSetOf(credentials: Credentials): SecretSet {
  let set = secretSets.get(credentials);
  if (!set) {
    set = secretsOf(credentials);
    secretSets.set(credentials, set);
  }
  return set;
}

const secretSets = new WeakMap<Credentials, SecretSet>();

function secretsOf(c: Credentials): SecretSet {
  if (c.kind === 'api-token') return { secrets: [c.token], combinations: [`Bearer ${c.token}`] };
  return {
    secrets: [c.token, c.secret, c.consumerSecret],
    combinations: [
      `${c.token}:${c.secret}`,
      `${c.consumerKey}:${c.consumerSecret}`,
      `${c.consumerSecret}&${c.secret}`,
      `${c.token}&${c.secret}`,
    ],
  };
}
