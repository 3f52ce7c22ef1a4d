/**
 * Never a loop. The wake proxy sends an app's requests to a domain Clever Cloud serves for it: its
 * `*.cleverapps.io` domain first (it always points at Clever Cloud's front), else the first of its
 * domains that is none of this reaper's own host names (a custom domain whose DNS points at the
 * reaper would bring the request back here). Each forwarded request carries a `Via` entry naming this
 * reaper; a request that already carries it went through this reaper once and is answered 508.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** The domain Clever Cloud gives every app (docs/clever-cloud-facts.md, "Domains"). */
export const CLEVER_APPS_SUFFIX = '.cleverapps.io';

/** The host an app's requests go to, or null when every one of its domains is the reaper's own. */
export function upstreamHost(
  vhosts: readonly string[] | undefined,
  isOwnHost: (host: string) => boolean,
): string | null {
  const hosts = (vhosts ?? []).map((h) => h.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean);
  const cleverApps = hosts.find((h) => h.endsWith(CLEVER_APPS_SUFFIX) && !isOwnHost(h));
  return cleverApps ?? hosts.find((h) => !isOwnHost(h)) ?? null;
}

/**
 * This reaper's own host names: those its routes and rules serve (`appForHost`), and the machine's
 * own names (localhost, its host name).
 */
export function ownHostOf(engine: {
  appForHost(host: string): string | undefined;
}): (host: string) => boolean {
  const machine = new Set(['localhost', hostname().toLowerCase()]);
  return (host) => machine.has(host) || engine.appForHost(host) !== undefined;
}

/** This reaper's name in `Via`: a pseudonym, one per process unless given. */
export function viaPseudonym(instanceId?: string): string {
  const id = (instanceId ?? randomBytes(6).toString('hex')).replace(/[^A-Za-z0-9._-]/g, '').slice(0, 40);
  return `clever-reaper-${id}`;
}

/** The `Via` header with this reaper's entry added (RFC 9110 7.6.3: received-protocol pseudonym). */
export function withVia(
  incoming: string | string[] | undefined,
  pseudonym: string,
  httpVersion: string,
): string {
  const own = `${httpVersion === '1.0' ? '1.0' : '1.1'} ${pseudonym}`;
  const before = Array.isArray(incoming) ? incoming.join(', ') : incoming;
  return before ? `${before}, ${own}` : own;
}

/** The request already went through this reaper (its `Via` names it). */
export function cameThroughHere(incoming: string | string[] | undefined, pseudonym: string): boolean {
  if (!incoming) return false;
  const text = Array.isArray(incoming) ? incoming.join(',') : incoming;
  for (const entry of text.split(',')) {
    const parts = entry.trim().split(/\s+/);
    if (parts[1] === pseudonym) return true;
  }
  return false;
}

export const LOOP_TEXT =
  'Clever Reaper: this request already went through this reaper (its Via header names it): the ' +
  "app's domain points back at the reaper. Send the app's requests to its cleverapps.io domain, or " +
  'to a domain that does not point at the reaper.';
