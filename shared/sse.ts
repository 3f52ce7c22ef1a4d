/**
 * A server-sent events parser (the text/event-stream format), fed text as it arrives: events with
 * their `id` (which, as the format says, stays until an event sets another), `event` name and
 * `data`, dispatched at each blank line; comments ignored; lines end with LF, CRLF or CR. Used for
 * Clever Cloud's v4 streams (access logs) in main/ and for the admin event stream in the dashboard.
 *
 * Push-based, not an async iterator: a reaper keeps one stream per app open and each gets a
 * heartbeat every 2 s, so the promises of an iterator per event were most of the cost of a stream.
 */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
  /** A reconnection delay the server asked for, in ms. */
  retry: number | null;
}

export class SseParser {
  private buffer = '';
  /** A CR at the end of a chunk: a line end, but perhaps the first half of a CRLF. */
  private pendingCr = false;
  private id: string | null = null;
  private event = '';
  private data: string[] = [];
  private retry: number | null = null;

  /** The events that `chunk` completes, in order. */
  push(chunk: string): SseEvent[] {
    let text = this.pendingCr ? `\r${chunk}` : chunk;
    this.pendingCr = false;
    if (text.includes('\r')) {
      if (text.endsWith('\r')) {
        this.pendingCr = true;
        text = text.slice(0, -1);
      }
      text = text.replace(/\r\n?/g, '\n');
    }
    const buffer = this.buffer + text;
    const out: SseEvent[] = [];
    let start = 0;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n', start)) {
      this.line(buffer.slice(start, end), out);
      start = end + 1;
    }
    this.buffer = start === 0 ? buffer : buffer.slice(start);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length || this.event) {
        out.push({
          id: this.id,
          event: this.event || 'message',
          data: this.data.join('\n'),
          retry: this.retry,
        });
      }
      this.event = '';
      this.data = [];
      this.retry = null;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
  }
}
