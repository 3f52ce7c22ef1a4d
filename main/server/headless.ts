/**
 * The headless server, built from its parts: data directory and admin token, the service (demo or
 * account sessions), the HTTP transport. A function of its dependencies, so tests start it
 * in-process on port 0 with a clock of their own.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReaperService } from '../service/reaper-service.ts';
import { type RuntimeOptions, startRuntime } from '../service/runtime.ts';
import { defaultLimits, type ProxyLimits, setProxyLimits } from '../traffic/limits.ts';
import { startHttpServer } from './http-server.ts';
import { type AdminToken, ensureDataDir, loadOrCreateToken } from './token.ts';

export interface HeadlessOptions extends RuntimeOptions {
  host: string;
  port: number;
  /** The built dashboard; default: out/renderer of this checkout, when built. */
  staticDir?: string | null;
  heartbeatMs?: number;
  /** Host names the admin API answers to (default: $REAPER_ALLOWED_HOSTS, comma-separated). */
  allowedHosts?: string[];
  /** Connection caps (default: limits.ts); the wake proxy's apply to every wake proxy of the process. */
  caps?: Partial<ConnectionCaps>;
}

export type ConnectionCaps = Pick<
  ProxyLimits,
  'maxConnections' | 'maxConnectionsPerAddress' | 'maxStatusStreams' | 'maxStatusStreamsPerAddress'
> & { adminMaxConnections: number };

export interface Headless {
  /** The server's base URL. */
  url: string;
  /** The dashboard, with the token in the fragment (never sent over the network by the browser). */
  dashboardUrl: string;
  token: AdminToken;
  service: ReaperService;
  close(): Promise<void>;
}

/** out/renderer of this checkout, when the dashboard has been built. */
export function defaultStaticDir(): string | null {
  const dir = fileURLToPath(new URL('../../out/renderer/', import.meta.url));
  return existsSync(join(dir, 'index.html')) ? dir : null;
}

export async function startHeadless(options: HeadlessOptions): Promise<Headless> {
  const env = options.env ?? process.env;
  ensureDataDir(options.dataDir);
  const token = loadOrCreateToken(options.dataDir, env);
  const { adminMaxConnections: defaultAdminCap, ...proxyDefaults } = defaultLimits();
  const { adminMaxConnections = defaultAdminCap, ...proxyCaps } = options.caps ?? {};
  setProxyLimits({ ...proxyDefaults, ...proxyCaps });
  const service = await startRuntime({ ...options, env });
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer({
      backend: service,
      token: token.token,
      host: options.host,
      port: options.port,
      staticDir: options.staticDir === undefined ? defaultStaticDir() : options.staticDir,
      ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
      allowedHosts:
        options.allowedHosts ??
        (env.REAPER_ALLOWED_HOSTS ?? '')
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      maxConnections: adminMaxConnections,
      ...(options.log ? { log: options.log } : {}),
    });
  } catch (error) {
    await service.close();
    throw error;
  }
  return {
    url: http.url,
    dashboardUrl: `${http.url}/#token=${encodeURIComponent(token.token)}`,
    token,
    service,
    async close() {
      await http.close();
      await service.close();
    },
  };
}
