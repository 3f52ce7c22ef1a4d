/**
 * The framing of a request's body on its way to the app. A body is framed by exactly one
 * Content-Length, or by chunked alone, and goes on framed the same way whatever the method: Node
 * frames a body it is not told about only for some methods (POST, PUT, PATCH), so a GET's chunked
 * body written bare onto the pooled keep-alive connection would be read by the upstream (Clever
 * Cloud's shared front) as the next request: request smuggling.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { withVia } from './loop-guard.ts';

/**
 * Why a request's body framing is refused, or null. Node's parser already refuses Content-Length
 * with Transfer-Encoding and a Transfer-Encoding that does not end in chunked; this holds whatever
 * the parser lets through: a body is framed by exactly one Content-Length, or by chunked alone.
 */
export function unframed(req: IncomingMessage): string | null {
  const te = req.headers['transfer-encoding'];
  const length = req.headers['content-length'];
  if (te !== undefined && length !== undefined) return 'both Content-Length and Transfer-Encoding';
  if (te !== undefined && te.trim().toLowerCase() !== 'chunked')
    return `Transfer-Encoding ${te.slice(0, 50)}`;
  if (length !== undefined && !/^\d+$/.test(length)) return 'an invalid Content-Length';
  return null;
}

/** A request that cannot be passed on safely: 400, and the connection is closed (its body unread). */
export function refuse(res: ServerResponse, why: string): void {
  res.shouldKeepAlive = false;
  res.writeHead(400, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'close',
  });
  res.end(`Clever Reaper refuses this request: ${why}`);
}

/** Framing for the request sent on: chunked when the client's body was (transfer-encoding is hop-by-hop). */
export function keepFraming(
  incoming: IncomingHttpHeaders,
  outgoing: Record<string, string | string[]>,
): void {
  if (incoming['transfer-encoding'] === undefined) return;
  outgoing['transfer-encoding'] = 'chunked';
  delete outgoing['content-length'];
}

/** Headers of one connection only: never passed on (an upgrade passes its own on, see upgrades.ts). */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The host name a request asks for: lower case, without its port or a final dot. */
export function requestHost(headers: IncomingHttpHeaders): string {
  return (headers.host ?? '').trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

/**
 * The headers a request goes on with to the app: the client's, less the hop-by-hop ones, plus the
 * X-Forwarded-* trio, this reaper's Via entry and the app's own Host (requests and upgrades alike).
 */
export function forwardedHeaders(
  req: IncomingMessage,
  upstreamHost: string,
  via: string,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const incoming = req.headers;
  for (const name in incoming) {
    const value = incoming[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const client = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const forwardedFor = incoming['x-forwarded-for'];
  headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${client}` : client;
  headers['x-forwarded-host'] = incoming.host ?? '';
  headers['x-forwarded-proto'] = 'http';
  headers.via = withVia(incoming.via, via, req.httpVersion);
  headers.host = upstreamHost;
  return headers;
}
