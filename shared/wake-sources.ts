/**
 * What can wake one app, as the details panel and GET /api/apps/{id} show it (issue 13, item 11).
 *
 * The wake path the spec describes is the wake proxy: requests for the app's host names go through
 * it, and a request for a sleeping app starts it. Access logs are a second source, but that a request
 * to a stopped app appears in its access logs is unconfirmed by any public Clever Cloud source
 * (docs/clever-cloud-facts.md): an app whose only automatic wake source is access logs gets a
 * warning, and the wakes access logs did trigger are counted so a real account can confirm or refute it.
 */
import type { AppRouting } from './routes.ts';

export interface WakeSources {
  /** The wake proxy: the host names of the app's enabled routes, and whether the proxy listens. */
  proxy: { hosts: string[]; listening: boolean };
  /** The app's access-log stream is followed (an entry for an Asleep app wakes it). */
  accessLogs: boolean;
  /** Its enabled routes have must-be-up ranges: each range start wakes it. */
  ranges: boolean;
  /** Wake in the dashboard or the tray, the admin API, a clever-reaper:// link: always there. */
  manual: true;
  /** Wakes an access-log entry triggered while the app was Asleep, since the reaper started. */
  accessLogWakes: number;
  /** Set when access logs are the only automatic wake source (or the proxy cannot listen). */
  warning: string | null;
}

export interface WakeSourcesInput {
  routing: AppRouting | undefined;
  /** The session follows access logs (its Clever Cloud port has them). */
  accessLogs: boolean;
  proxyListening: boolean;
  accessLogWakes: number;
}

export const ONLY_ACCESS_LOGS_WARNING =
  'Only access logs can wake this app by themselves, and that a request to a stopped app appears in ' +
  'its access logs is unconfirmed: give its route a host name served by the wake proxy, or must-be-up ' +
  'ranges, or count on manual wakes.';

export function wakeSourcesOf(input: WakeSourcesInput): WakeSources {
  const managed = input.routing?.managed === true;
  const hosts = managed ? [...(input.routing?.hosts ?? [])] : [];
  const accessLogs = managed && input.accessLogs;
  const ranges = managed && (input.routing?.ranges.length ?? 0) > 0;
  const proxyWakes = hosts.length > 0 && input.proxyListening;
  let warning: string | null = null;
  if (accessLogs && !proxyWakes && !ranges) {
    warning =
      hosts.length > 0
        ? `The wake proxy is not listening for ${hosts.join(', ')}. ${ONLY_ACCESS_LOGS_WARNING}`
        : ONLY_ACCESS_LOGS_WARNING;
  }
  return {
    proxy: { hosts, listening: input.proxyListening },
    accessLogs,
    ranges,
    manual: true,
    accessLogWakes: input.accessLogWakes,
    warning,
  };
}
