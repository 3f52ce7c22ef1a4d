/**
 * A headless server for a test, as most server tests start it: on a Clever Cloud account (not the
 * demo), on loopback and an ephemeral port, without the dashboard's files or the environment's
 * credentials. Spread it and add the data folder and what the test is about.
 */
import type { HeadlessOptions } from '../server/headless.ts';

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
