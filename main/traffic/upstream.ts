/**
 * Where the wake proxy sends an app's requests: the app's Clever Cloud domain (its first vhost), over
 * HTTPS. The origin can be overridden (the demo sends them to the embedded simulator, which serves the
 * apps by Host like Clever Cloud's front). Domains are read once and kept for ten minutes.
 */
import type { CleverCloudPort } from '../engine/ports.ts';
import type { Upstream } from './wake-proxy.ts';

const TTL_MS = 10 * 60_000;

export function cleverUpstream(
  clever: Pick<CleverCloudPort, 'getApplication'>,
  options: { origin?: string } = {},
): (appId: string, ownerId: string) => Promise<Upstream> {
  const cache = new Map<string, { host: string; until: number }>();
  return async (appId, ownerId) => {
    const hit = cache.get(appId);
    let host = hit && hit.until > Date.now() ? hit.host : null;
    if (!host) {
      const app = await clever.getApplication(ownerId, appId);
      host = app?.vhosts?.[0] ?? null;
      if (!host) throw new Error(`${appId} has no domain on Clever Cloud to send requests to`);
      cache.set(appId, { host, until: Date.now() + TTL_MS });
    }
    return { origin: options.origin ?? `https://${host}`, host };
  };
}
