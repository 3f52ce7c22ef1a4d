/**
 * An access-log follower on a live harness's simulator, not started: its streams through the real
 * client, quick reconnections and a 3 s silence, so that the tests of traffic see drops and gaps
 * within a second or two. Test-only.
 */
import { AccessLogFollower, type AccessLogOptions } from '../traffic/access-logs.ts';
import { TrafficStats } from '../traffic/stats.ts';
import type { LiveHarness } from './live-harness.ts';

export function accessLogFollowerOf(
  h: LiveHarness,
  overrides: Partial<AccessLogOptions> = {},
): AccessLogFollower {
  return new AccessLogFollower({
    engine: h.engine,
    clock: h.clock,
    stats: new TrafficStats(),
    source: (owner, app, options) => h.client.accessLogs(owner, app, options),
    silenceMs: 3000,
    backoffMs: { first: 20, max: 200 },
    ...overrides,
  });
}
