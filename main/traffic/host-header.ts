/**
 * The Host header a request routes by. Node keeps the first of several Host headers and drops the
 * rest, so a request naming two hosts would be routed by one while a front before or an app behind
 * could read the other: such a request is refused (RFC 9112 §3.2: exactly one Host, else 400).
 */
import type { IncomingMessage } from 'node:http';

/** Why a request's Host is refused (more than one Host header), or null. */
export function duplicateHost(req: IncomingMessage): string | null {
  let seen = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') seen++;
  return seen > 1 ? `${seen} Host headers (exactly one is allowed)` : null;
}
