/**
 * A headless server for a test, as most server tests start it: on a Clever Cloud account (not the
 * demo), on loopback and an ephemeral port, without the dashboard's files or the environment's
 * credentials. Spread it and add the data folder and what the test is about.
 */
import type { Headless, HeadlessOptions } from '../server/headless.ts';

export const TEST_SERVER = {
  demo: false,
  scenario: 'demo',
  host: '127.0.0.1',
  port: 0,
  apiUrl: null,
  timeScale: 1,
  staticDir: null,
  env: {},
} as const satisfies Partial<HeadlessOptions>;

/** A call to a server's admin API with its token: the status and the parsed body (null when empty). */
export async function adminCall<T = unknown>(
  server: Headless,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.token.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}
