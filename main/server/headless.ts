/**
 * The headless server, built from its parts: data directory and admin token, the service (demo or
 * account sessions), the HTTP transport. A function of its dependencies, so tests start it
 * in-process on port 0 with a clock of their own.
 *
 * On one port (`onePort`, as on Clever Cloud, where an app has one public HTTP port): the Hosts that
 * name the server (its allowed hosts, its addresses, loopback) get the dashboard and the admin API,
 * every other Host goes to the wake proxy, which routes it to the app of the route naming it. The wake
 * proxy then listens on no port of its own (an account's; the demo's still does): the wake-proxy port
 * follows the server's, so two instances on one host never collide on it.
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ReaperService } from '../service/reaper-service.ts';
import { type RuntimeOptions, startRuntime } from '../service/runtime.ts';
import { defaultLimits, type ProxyLimits, setProxyLimits } from '../traffic/limits.ts';
import { Gate } from './gate.ts';
import { startHttpServer } from './http-server.ts';
import type { People } from './people.ts';
import { openPeople } from './people-store.ts';
import { leasesCheck, type ReadinessCheck, readiness, serviceChecks } from './readiness.ts';
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
  /**
   * More checks of GET /readyz, after the engine's and the datastore's (readiness.ts): team mode's
   * leases add theirs here.
   */
  readinessChecks?: ReadinessCheck[];
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
  /** Personal tokens, sessions and the audit (people-store.ts). */
  people: People;
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
  const limits = { ...proxyDefaults, ...proxyCaps };
  setProxyLimits(limits);
  const people = await openPeople({
    dataDir: options.dataDir,
    database: options.database ?? null,
    bootstrap: token.token,
    ...(options.log ? { log: options.log } : {}),
  });
  let service: ReaperService;
  try {
    service = await startRuntime({ ...options, env });
  } catch (error) {
    await people.close();
    throw error;
  }
  // Team mode: the leases too (none held nor waited for properly: not ready).
  const checks = [
    ...serviceChecks(service),
    ...(options.database ? [leasesCheck(service)] : []),
    ...(options.readinessChecks ?? []),
  ];
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer({
      backend: service,
      token: token.token,
      gate: new Gate({
        people: people.people,
        bootstrap: token.token,
        audit: people.audit,
        ...(options.log ? { log: options.log } : {}),
      }),
      audit: people.audit,
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
      // On one port, the wake proxy's visitors come through this server's connections too.
      maxConnections: adminMaxConnections + (options.onePort ? limits.maxConnections : 0),
      readiness: () => readiness(checks),
      ...(options.onePort
        ? {
            otherHosts: (req, res) => toWakeProxy(service, req, res),
            otherHostsUpgrade: (req, socket, head) => upgradeToWakeProxy(service, req, socket, head),
          }
        : {}),
      log: options.log,
    });
  } catch (error) {
    await service.close();
    await people.close();
    throw error;
  }
  return {
    url: http.url,
    dashboardUrl: `${http.url}/#token=${encodeURIComponent(token.token)}`,
    token,
    service,
    people: people.people,
    async close() {
      await http.close();
      await service.close();
      await people.close();
    },
  };
}

/** An upgrade (a WebSocket) for another Host, on one port: the wake proxy's, or 404 as for a request. */
function upgradeToWakeProxy(
  service: ReaperService,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  const proxy = service.current?.traffic.wakeProxy;
  if (proxy) {
    proxy.serveUpgrade(req, socket, head);
    return;
  }
  const text = 'Clever Reaper: no app is routed for this host';
  socket.end(
    `HTTP/1.1 404 Not Found\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

/** A request for another Host, on one port: the wake proxy's, or 404 while no route names a host. */
function toWakeProxy(service: ReaperService, req: IncomingMessage, res: ServerResponse): void {
  const proxy = service.current?.traffic.wakeProxy;
  if (proxy) {
    proxy.serve(req, res);
    return;
  }
  const text = 'Clever Reaper: no app is routed for this host';
  res.writeHead(404, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
