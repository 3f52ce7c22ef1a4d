/**
 * Server-sent events read with fetch (an EventSource cannot send the Authorization header), with
 * reconnection: 1 s, then doubling up to 15 s, back to 1 s once connected.
 */

export interface SseMessage {
  id: string | null;
  data: string;
}

/** Split a text stream into SSE messages; returns each complete message with data. */
export class SseParser {
  private buffer = '';

  push(chunk: string): SseMessage[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const out: SseMessage[] = [];
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end < 0) break;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const lines = block.split('\n');
      const field = (name: string) =>
        lines
          .filter((line) => line.startsWith(`${name}:`))
          .map((line) => line.slice(line.startsWith(`${name}: `) ? name.length + 2 : name.length + 1));
      const data = field('data');
      if (data.length) out.push({ id: field('id').at(-1) ?? null, data: data.join('\n') });
    }
    return out;
  }
}

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

export interface StreamOptions {
  url: string;
  headers: () => Record<string, string>;
  onMessage: (message: SseMessage) => void;
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

  const run = async () => {
    if (stopped) return;
    controller = new AbortController();
    try {
      const res = await doFetch(options.url, {
        headers: { accept: 'text/event-stream', ...options.headers() },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (res.status === 401) {
        options.onState('unauthorized');
        return;
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
    } catch {
      // Fall through to a reconnection, unless stopped.
    }
    if (stopped) return;
    options.onState('reconnecting');
    timer = setTimeout(run, delay);
    delay = Math.min(delay * 2, 15_000);
  };

  options.onState('connecting');
  void run();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller?.abort();
    },
  };
}
