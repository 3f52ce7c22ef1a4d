/**
 * Clever Cloud's event socket (wss://<API host>/v2/events/event-socket): after an OAuth1
 * authorization message, the platform pushes its events (deployments beginning and ending, apps
 * stopped...) for every app the credentials can see, with heartbeats to answer. Node 24 and Electron
 * have a WebSocket client built in.
 *
 * The socket is optional: the engine's paces do the work without it; with it, a deployment that ends
 * is seen within a second instead of within the 5-second pace. clever-tools follows deployments by
 * polling because the socket has been unreliable at times, so a dead socket (no heartbeat within
 * 1.25 times its announced delay) ends the stream and the caller opens it again.
 *
 * As in clever-client.js (esm/streams/events.ts and esm/streams/stream.abstract.ts, `_onPing`), the
 * watchdog starts at the first ping: before it, no delay has been announced, and a socket that has not
 * pinged yet is not declared dead (it still ends on a close or an error).
 */

import type { CleverEvent } from '../engine/ports.ts';

/** The port declares the events (engine/ports.ts), as every capability of a port. */
export type { CleverEvent };

export class EventSocketRefused extends Error {
  constructor() {
    super('the event socket refused the credentials (error 2001)');
    this.name = 'EventSocketRefused';
  }
}

/** The delay assumed for a ping that announces none (unconfirmed: every source's pings announce one). */
const DEFAULT_PING_DELAY_MS = 15_000;
/** clever-client.js esm/streams/stream.abstract.ts, PING_TIMEOUT_FACTOR. */
const PING_TIMEOUT_FACTOR = 1.25;

/** Parse one message of the socket: an event, a heartbeat to answer, an auth error, or nothing. */
export function parseSocketMessage(
  text: string,
):
  | { kind: 'event'; event: CleverEvent }
  | { kind: 'ping'; delayMs: number }
  | { kind: 'refused' }
  | { kind: 'other' } {
  let message: Record<string, unknown>;
  try {
    message = JSON.parse(text);
  } catch {
    return { kind: 'other' };
  }
  if (message.type === 'heartbeat' && message.heartbeat_msg === 'ping') {
    const delay = Number(message.heartbeat_delay_ms);
    return { kind: 'ping', delayMs: Number.isFinite(delay) && delay > 0 ? delay : DEFAULT_PING_DELAY_MS };
  }
  if (message.type === 'error' && Number(message.id) === 2001) return { kind: 'refused' };
  if (typeof message.event !== 'string') return { kind: 'other' };
  let data: Record<string, unknown> = {};
  try {
    const raw = typeof message.data === 'string' ? JSON.parse(message.data) : message.data;
    if (raw && typeof raw === 'object') data = raw as Record<string, unknown>;
  } catch {
    // an event whose data does not parse still says something happened
  }
  const appId = typeof data.appId === 'string' ? data.appId : typeof data.id === 'string' ? data.id : null;
  return {
    kind: 'event',
    event: { type: message.event, date: typeof message.date === 'string' ? message.date : null, appId, data },
  };
}

/** The events of the socket until it closes, dies or `signal` aborts. */
export async function* eventSocket(
  url: string,
  authorization: string,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<CleverEvent> {
  const queue: (CleverEvent | Error | null)[] = [];
  let wake: (() => void) | null = null;
  const push = (item: CleverEvent | Error | null) => {
    queue.push(item);
    wake?.();
  };
  const ws = new WebSocket(url);
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const watch = (ms: number) => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      push(new Error('the event socket went silent'));
      ws.close();
    }, ms);
  };
  const abort = () => {
    push(null);
    ws.close();
  };
  options.signal?.addEventListener('abort', abort, { once: true });
  ws.addEventListener('open', () => {
    // No watchdog yet: it is armed by the first ping, with the delay that ping announces.
    ws.send(JSON.stringify({ message_type: 'oauth', authorization }));
  });
  ws.addEventListener('message', (m) => {
    const parsed = parseSocketMessage(String(m.data));
    if (parsed.kind === 'ping') {
      ws.send(JSON.stringify({ type: 'heartbeat', heartbeat_msg: 'pong' }));
      watch(parsed.delayMs * PING_TIMEOUT_FACTOR);
    } else if (parsed.kind === 'refused') {
      push(new EventSocketRefused());
    } else if (parsed.kind === 'event') {
      push(parsed.event);
    }
  });
  ws.addEventListener('error', () => push(new Error('the event socket failed')));
  ws.addEventListener('close', () => push(null));
  try {
    for (;;) {
      if (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      const item = queue.shift();
      if (item === undefined) continue;
      if (item === null) return;
      if (item instanceof Error) throw item;
      yield item;
    }
  } finally {
    clearTimeout(watchdog);
    options.signal?.removeEventListener('abort', abort);
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
  }
}
