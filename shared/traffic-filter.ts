/**
 * Traffic filters of a route: requests that must not count as traffic (health checks, uptime
 * monitors), by path prefix or by source IP / CIDR block. Pure.
 */
import { type Cidr, cidrContains, parseCidr, parseIp } from './net.ts';
import type { TrafficFilters } from './routes.ts';

export interface SeenRequest {
  path: string;
  sourceIp: string | null;
}

export interface CompiledFilters {
  pathPrefixes: string[];
  sources: { text: string; block: Cidr }[];
}

export function compileFilters(filters: TrafficFilters): CompiledFilters {
  return {
    pathPrefixes: [...new Set(filters.pathPrefixes)],
    sources: filters.sources.flatMap((text) => {
      const block = parseCidr(text);
      return block ? [{ text, block }] : [];
    }),
  };
}

/** Why a request does not count as traffic ("path /health", "source 10.0.0.0/8"), or null if it counts. */
export function ignoredBecause(request: SeenRequest, filters: CompiledFilters): string | null {
  const path = request.path.split('?')[0] ?? '';
  for (const prefix of filters.pathPrefixes) {
    if (
      path === prefix ||
      path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`) ||
      path.startsWith(`${prefix}?`)
    ) {
      return `path ${prefix}`;
    }
  }
  if (request.sourceIp && filters.sources.length) {
    const ip = parseIp(request.sourceIp);
    if (ip) for (const s of filters.sources) if (cidrContains(s.block, ip)) return `source ${s.text}`;
  }
  return null;
}
