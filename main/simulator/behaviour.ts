/** Readings of the platform that no source settles, switchable while the simulator runs. */

/** Clever Cloud's heartbeat on an access-log stream, and the event socket's announced ping delay. */
export const HEARTBEAT_MS = 2000;

/**
 * Behaviours of the real platform that are unconfirmed, so tests can cover each reading.
 */
export interface SimBehaviour {
  /**
   * Whether an access-log stream resumes after the id in Last-Event-ID. clever-client.js sends it
   * (src/lib/stream/cc-stream.ts), but whether the server honours it is unconfirmed: when false, the
   * header is ignored and only `since` chooses the backlog.
   */
  honourLastEventId: boolean;
  /**
   * Whether access-log events carry ids (the SSE `id:` line, and `id`/`requestId` in the data).
   * clever-client.js resumes by the SSE id; entries without any id are a reading to tolerate.
   */
  accessLogIds: boolean;
  /** The event socket's heartbeat: its announced delay, and whether pings are sent at all. */
  socketPingDelayMs: number;
  socketPings: boolean;
}
