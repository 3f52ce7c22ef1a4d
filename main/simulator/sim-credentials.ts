/** The credentials the simulator accepts, and how it checks an authorization header against them. */
import { timingSafeEqual } from 'node:crypto';

/** Credentials the simulator accepts, as a real account would have them. */
export interface SimCredentials {
  /** OAuth1: the consumer pair and the user's token and secret. */
  oauth?: { consumerKey: string; consumerSecret: string; token: string; secret: string };
  /** API tokens, sent as Bearer (to the api-bridge host on the real platform). */
  apiTokens?: string[];
}

export const DEMO_CREDENTIALS: Required<SimCredentials> = {
  oauth: {
    consumerKey: 'sim-consumer-key',
    consumerSecret: 'sim-consumer-secret',
    token: 'sim-user-token',
    secret: 'sim-user-secret',
  },
  apiTokens: ['sim-api-token'],
};

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** OAuth1 PLAINTEXT (signature = consumer secret & token secret, URL-encoded) or Bearer. */
export function authorised(header: string, credentials: SimCredentials): boolean {
  if (header.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    return (credentials.apiTokens ?? []).some((t) => same(t, token));
  }
  if (!header.startsWith('OAuth ') || !credentials.oauth) return false;
  const params = new Map<string, string>();
  for (const m of header.slice(6).matchAll(/([a-z_]+)="([^"]*)"/g)) params.set(m[1]!, m[2]!);
  const o = credentials.oauth;
  const signature = decodeURIComponent(params.get('oauth_signature') ?? '');
  return (
    same(params.get('oauth_consumer_key') ?? '', o.consumerKey) &&
    same(params.get('oauth_token') ?? '', o.token) &&
    same(signature, `${o.consumerSecret}&${o.secret}`)
  );
}
