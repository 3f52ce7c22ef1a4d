/**
 * A server-sent events reader (the text/event-stream format): events with their `id`, `event` name
 * and `data`, dispatched at each blank line. Used for Clever Cloud's v4 streams (access logs).
 */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
  /** A reconnection delay the server asked for, in ms. */
  retry: number | null;
}

/** Parse a text/event-stream body into events; ends with the stream or when `signal` aborts. */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  let buffer = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  let retry: number | null = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (data.length || event) {
            yield { id, event: event || 'message', data: data.join('\n'), retry };
          }
          event = '';
          data = [];
          retry = null;
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          let value = colon < 0 ? '' : line.slice(colon + 1);
          if (value.startsWith(' ')) value = value.slice(1);
          if (field === 'data') data.push(value);
          else if (field === 'event') event = value;
          else if (field === 'id' && !value.includes('\0')) id = value;
          else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
        }
        newline = buffer.search(/\r\n|\r|\n/);
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
