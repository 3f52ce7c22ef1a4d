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

/**
 * Parse a text/event-stream body into events; ends with the stream, or quietly when `signal` aborts
 * (the body must then end or fail: a node:http response whose request was given the signal does).
 */
export async function* readSse(
  body: AsyncIterable<Uint8Array | string>,
  signal?: AbortSignal,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  let retry: number | null = null;
  try {
    for await (const chunk of body) {
      buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
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
  } catch (error) {
    if (signal?.aborted) return;
    throw error;
  }
}
