/**
 * Server-sent events read with fetch (an EventSource cannot send the Authorization header), with
 * reconnection: 1 s, then doubling up to 15 s, back to 1 s once connected.
 */
import { type SseEvent, SseParser } from '../../shared/sse.ts';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

export interface StreamOptions {
  url: string;
  headers: () => Record<string, string>;
  onMessage: (message: SseEvent) => void;
  onState: (state: StreamState) => void;
  fetch?: typeof fetch;
}

/** Keep a stream open until `stop()`; every (re)connection is announced as 'live'. */
export function openStream(options: StreamOptions): { stop(): void } {
  const doFetch = options.fetch ?? fetch.bind(globalThis);
  let stopped = false;
  let controller: AbortController | null = null;
  let delay = 1000;
  let timer: ReturnType<typeof setTimeout> | null = null;

  /** One connection, read until it ends; resolves whether to connect again (not after a 401). */
  const read = async (): Promise<boolean> => {
    if (stopped) return false;
    controller = new AbortController();
    const res = await doFetch(options.url, {
      headers: { accept: 'text/event-stream', ...options.headers() },
      signal: controller.signal,
      cache: 'no-store',
    });
    if (res.status === 401) {
      options.onState('unauthorized');
      return false;
    }
    if (!res.ok || !res.body) throw new Error(`event stream: HTTP ${res.status}`);
    delay = 1000;
    options.onState('live');
    const parser = new SseParser();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const message of parser.push(value)) options.onMessage(message);
    }
    return true;
  };

  const reconnect = () => {
    if (stopped) return;
    options.onState('reconnecting');
    timer = setTimeout(connect, delay);
    delay = Math.min(delay * 2, 15_000);
  };

  /** A stream that ends or fails (the network, the reaper, an abort) is opened again, unless stopped. */
  function connect() {
    read().then((again) => {
      if (again) reconnect();
    }, reconnect);
  }

  options.onState('connecting');
  connect();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller?.abort();
    },
  };
}
