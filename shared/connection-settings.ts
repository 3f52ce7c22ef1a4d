/**
 * Long-lived connections as traffic, per route: while a connection to an app through the wake proxy
 * is open (a WebSocket, a server-sent event stream, a long poll, a download), the app counts as in
 * use and its last request moves on, unless the route says otherwise. A connection silent in both
 * directions for the idle limit stops counting (a tab left open on a page that never talks).
 */
import { z } from 'zod';
import { DAY, MINUTE } from './durations.ts';

export const DEFAULT_CONNECTIONS_KEEP_AWAKE = true;
export const DEFAULT_CONNECTION_IDLE_LIMIT_MS = 15 * MINUTE;
export const MIN_CONNECTION_IDLE_LIMIT_MS = MINUTE;
export const MAX_CONNECTION_IDLE_LIMIT_MS = 7 * DAY;

/** The route's fields (both optional on a route: absent means the defaults above). */
export interface ConnectionSettings {
  /** Open connections keep the app awake (default on). */
  connectionsKeepAwake?: boolean;
  /** A connection silent this long (both ways) stops counting. */
  connectionIdleLimitMs?: number;
}

/** The route schema's checks of those fields. */
export const connectionFields = {
  connectionsKeepAwake: z.boolean(),
  connectionIdleLimitMs: z.number().int().min(MIN_CONNECTION_IDLE_LIMIT_MS).max(MAX_CONNECTION_IDLE_LIMIT_MS),
};

/** What the routes of one app say about its connections. */
export interface ConnectionUse {
  keepsAwake: boolean;
  idleLimitMs: number;
}

export const DEFAULT_CONNECTION_USE: ConnectionUse = {
  keepsAwake: DEFAULT_CONNECTIONS_KEEP_AWAKE,
  idleLimitMs: DEFAULT_CONNECTION_IDLE_LIMIT_MS,
};

/**
 * The connection use of an app from its enabled routes: connections keep it awake when one route
 * says so (as the longest grace period wins), for the longest idle limit of those routes. An app no
 * enabled route names (managed by a rule) has the defaults.
 */
export function connectionUseOf(
  routes: readonly ({ appId: string; enabled: boolean } & ConnectionSettings)[],
  appId: string,
): ConnectionUse {
  let named = false;
  let longest: number | null = null;
  for (const route of routes) {
    if (!route.enabled || route.appId !== appId) continue;
    named = true;
    if (!(route.connectionsKeepAwake ?? DEFAULT_CONNECTIONS_KEEP_AWAKE)) continue;
    const idleLimitMs = route.connectionIdleLimitMs ?? DEFAULT_CONNECTION_IDLE_LIMIT_MS;
    longest = Math.max(longest ?? 0, idleLimitMs);
  }
  if (longest !== null) return { keepsAwake: true, idleLimitMs: longest };
  return named
    ? { keepsAwake: false, idleLimitMs: DEFAULT_CONNECTION_IDLE_LIMIT_MS }
    : DEFAULT_CONNECTION_USE;
}
