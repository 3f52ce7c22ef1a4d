import { describe, expect, it } from 'vitest';
import { SseParser } from './sse.ts';

const ev = (data: string, more: { id?: string | null; event?: string; retry?: number | null } = {}) => ({
  id: more.id ?? null,
  event: more.event ?? 'message',
  data,
  retry: more.retry ?? null,
});

describe('the server-sent events parser', () => {
  it('gives each complete event, across chunks and line endings', () => {
    const parser = new SseParser();
    expect(parser.push('retry: 2000\n\nid: 1\ndata: {"type":"cl')).toEqual([]);
    expect(parser.push('ock"}\r\n\r\nid: 2\ndata: a\ndata: b\n\n')).toEqual([
      ev('{"type":"clock"}', { id: '1' }),
      ev('a\nb', { id: '2' }),
    ]);
  });

  it('keeps the last id until another is set, and names events', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7\nevent: ACCESS_LOG\ndata: {}\n\nevent: HEARTBEAT\ndata: {}\n\n')).toEqual([
      ev('{}', { id: '7', event: 'ACCESS_LOG' }),
      ev('{}', { id: '7', event: 'HEARTBEAT' }),
    ]);
  });

  it('reads a CRLF split between two chunks as one line end, and a lone CR as a line end', () => {
    const parser = new SseParser();
    expect(parser.push('data: x\r')).toEqual([]);
    expect(parser.push('\n\r')).toEqual([]);
    expect(parser.push('\ndata: y\r\rdata: z\r\r')).toEqual([ev('x'), ev('y')]);
    // The last CR may be the first half of a CRLF: the event is complete with the next chunk.
    expect(parser.push(':')).toEqual([ev('z')]);
  });

  it('ignores comments and unknown fields, keeps a space after the colon only once, takes a numeric retry', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\nfoo: bar\nretry: soon\ndata:  two spaces\nretry: 1500\n\n')).toEqual([
      ev(' two spaces', { retry: 1500 }),
    ]);
  });

  it('dispatches an event with a name and no data (a bare heartbeat), not an empty block', () => {
    const parser = new SseParser();
    expect(parser.push('\n\nevent: HEARTBEAT\n\n')).toEqual([ev('', { event: 'HEARTBEAT' })]);
  });
});
