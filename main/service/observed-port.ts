/**
 * A Clever Cloud port that reports what goes through it, without changing it: the applications read
 * (their instance and flavor facts, for the savings estimate) and, for a port that is not the HTTP
 * client (the demo's in-process simulator), each call as the client's `onCall` reports it, for the
 * metrics. An observer that throws is logged, never felt by the engine.
 */

import { describeError, type Log } from '../../shared/log.ts';
import { CleverCallError } from '../../shared/port-errors.ts';
import type { CallRecord } from '../clever/client.ts';
import type { CleverApp, CleverCapabilities, CleverCloudPort } from '../engine/ports.ts';

/** The calls of the port (what the engine makes), without the capabilities the session uses. */
type PortCall = Exclude<keyof CleverCloudPort, keyof CleverCapabilities>;

export interface PortObservers {
  /** The applications read; a rejection is logged here. */
  onApps?: (apps: readonly CleverApp[]) => Promise<unknown>;
  /** Calls as CleverClient's onCall names them; leave out for the HTTP client (it reports itself). */
  onCall?: (call: CallRecord) => void;
  log?: Log;
}

const ENDPOINTS = {
  listOwners: 'GET /v2/organisations',
  listApplications: 'GET /v2/organisations/:XXX/applications',
  getApplication: 'GET /v2/organisations/:XXX/applications/:XXX',
  listDeployments: 'GET /v2/organisations/:XXX/applications/:XXX/deployments',
  startApplication: 'POST /v2/organisations/:XXX/applications/:XXX/instances',
  stopApplication: 'DELETE /v2/organisations/:XXX/applications/:XXX/instances',
} as const satisfies Record<PortCall, string>;

export function observedPort(port: CleverCloudPort, observers: PortObservers): CleverCloudPort {
  const safely = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (error) {
      observers.log?.('warn', `${what}: ${describeError(error)}`);
    }
  };
  const timed = async <T>(name: PortCall, run: () => Promise<T>): Promise<T> => {
    const onCall = observers.onCall;
    if (!onCall) return run();
    const started = performance.now();
    try {
      const result = await run();
      safely('a call could not be counted', () =>
        onCall({
          endpoint: ENDPOINTS[name],
          status: 200,
          outcome: 'ok',
          durationMs: performance.now() - started,
        }),
      );
      return result;
    } catch (error) {
      const outcome = error instanceof CleverCallError ? error.kind : 'client';
      const status = error instanceof CleverCallError ? error.status : null;
      safely('a call could not be counted', () =>
        onCall({ endpoint: ENDPOINTS[name], status, outcome, durationMs: performance.now() - started }),
      );
      throw error;
    }
  };
  const seen = (apps: readonly CleverApp[]) => {
    const onApps = observers.onApps;
    if (onApps && apps.length) {
      safely('the instance facts could not be recorded', () => {
        onApps(apps).catch((error: unknown) =>
          observers.log?.('warn', `the instance facts could not be recorded: ${describeError(error)}`),
        );
      });
    }
  };
  return {
    listOwners: (options) => timed('listOwners', () => port.listOwners(options)),
    listApplications: async (ownerId, options) => {
      const apps = await timed('listApplications', () => port.listApplications(ownerId, options));
      seen(apps);
      return apps;
    },
    getApplication: async (ownerId, appId, options) => {
      const app = await timed('getApplication', () => port.getApplication(ownerId, appId, options));
      if (app) seen([app]);
      return app;
    },
    listDeployments: (ownerId, appId, options) =>
      timed('listDeployments', () => port.listDeployments(ownerId, appId, options)),
    startApplication: (ownerId, appId, options) =>
      timed('startApplication', () => port.startApplication(ownerId, appId, options)),
    stopApplication: (ownerId, appId, options) =>
      timed('stopApplication', () => port.stopApplication(ownerId, appId, options)),
  };
}
