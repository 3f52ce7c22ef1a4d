/**
 * Where the wake proxy sends an app's requests: the app's Clever Cloud domain, over HTTPS: its
 * cleverapps.io domain, else one that is none of the reaper's own host names (loop-guard.ts). The origin can be overridden (the demo sends them to the embedded simulator, which serves the
 * apps by Host like Clever Cloud's front). Domains are read once and kept for ten minutes.
 */
import type { CleverCloudPort } from '../engine/ports.ts';
import { upstreamHost } from './loop-guard.ts';
import type { Upstream } from './wake-proxy.ts';

const TTL_MS = 10 * 60_000;

export function cleverUpstream(
  clever: Pick<CleverCloudPort, 'getApplication'>,
  options: { origin?: string; isOwnHost?: (host: string) => boolean } = {},
): (appId: string, ownerId: string) => Promise<Upstream> {
  const cache = new Map<string, { upstream: Upstream; until: number }>();
  const read = async (appId: string, ownerId: string): Promise<Upstream> => {
    const app = await clever.getApplication(ownerId, appId);
    if (!app?.vhosts?.length) throw new Error(`${appId} has no domain on Clever Cloud to send requests to`);
    const host = upstreamHost(app.vhosts, options.isOwnHost ?? (() => false));
    if (!host)
      throw new Error(
        `${appId}: every domain of the app (${app.vhosts.join(', ')}) is a host name of this reaper; sending its requests there would loop`,
      );
    const upstream = { origin: options.origin ?? `https://${host}`, host };
    cache.set(appId, { upstream, until: Date.now() + TTL_MS });
    return upstream;
  };
  // Known: from the cache, without a call (the wake proxy's hot path).
  return async (appId, ownerId) => {
    const hit = cache.get(appId);
    return hit && hit.until > Date.now() ? hit.upstream : read(appId, ownerId);
  };
}
