/**
 * The traffic sources of one session: the access-log streams of its managed apps, and the wake
 * proxy, which runs while at least one enabled route has host names (on the port and address of the
 * settings, moved when they change). What they saw is kept for the dashboard.
 */

import { describeError, type Log } from '../../shared/log.ts';
import { type WakeSources, wakeSourcesOf } from '../../shared/wake-sources.ts';
import type { Engine } from '../engine/engine.ts';
import type { Clock } from '../engine/ports.ts';
import type { ConfigStore } from '../store/config-store.ts';
import { AccessLogFollower, type AccessLogSource } from './access-logs.ts';
import type { AppConnections } from './connections.ts';
import { type AppTraffic, TrafficStats } from './stats.ts';
import { type Upstream, WakeProxy } from './wake-proxy.ts';

export interface SessionTrafficOptions {
  engine: Engine;
  config: ConfigStore;
  clock: Clock;
  /** The access-log stream of an app; null when the Clever Cloud port has none. */
  accessLogs: AccessLogSource | null;
  upstream: (appId: string, ownerId: string) => Promise<Upstream>;
  expectedWakeMs: (appId: string) => Promise<number | null>;
  log?: Log;
  /** One port (--one-port): the wake proxy is served on the server's port only, never its own. */
  onServerPort?: boolean;
}

export interface WakeProxyStatus {
  /** Where it listens, when it runs. */
  url: string | null;
  /** Why it does not run although a route has host names (its port is taken...). */
  problem: string | null;
}

export class SessionTraffic {
  readonly stats = new TrafficStats();
  private readonly options: SessionTrafficOptions;
  private readonly follower: AccessLogFollower | null;
  private proxy: { instance: WakeProxy; key: string; url: string | null } | null = null;
  private problem: string | null = null;
  private syncing: Promise<void> = Promise.resolve();
  private offConfig: (() => void) | null = null;
  private closed = false;
  private proxyListeners = new Set<() => void>();
  /** Wakes an access-log entry triggered while the app was Asleep, per app. */
  private readonly accessLogWakes = new Map<string, number>();
  private wakeListeners = new Set<(appId: string) => void>();

  constructor(options: SessionTrafficOptions) {
    this.options = options;
    this.follower = options.accessLogs
      ? new AccessLogFollower({
          engine: options.engine,
          source: options.accessLogs,
          clock: options.clock,
          stats: this.stats,
          onWake: (appId) => this.accessLogWoke(appId),
          ...(options.log ? { log: options.log } : {}),
        })
      : null;
  }

  start(): Promise<void> {
    this.follower?.start();
    this.offConfig = this.options.config.onChange(() => this.followConfig());
    return this.syncProxy();
  }

  /** The routes or settings changed: the wake proxy follows; a failure is logged, the next change tries again. */
  private followConfig(): void {
    this.syncProxy().catch((error: unknown) =>
      this.options.log?.('error', `the wake proxy could not follow the settings: ${describeError(error)}`),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.offConfig?.();
    await this.syncing;
    await this.follower?.stop();
    await this.proxy?.instance.close();
    this.proxy = null;
  }

  /** Whether the app's traffic logged while the reaper was away is still being read (EngineDeps.trafficUnread). */
  unread(appId: string): boolean {
    return this.follower?.unread(appId) ?? false;
  }

  /** Hear when the wake proxy starts, stops, moves or fails. */
  onProxyChange(listener: () => void): () => void {
    this.proxyListeners.add(listener);
    return () => this.proxyListeners.delete(listener);
  }

  /** Hear each wake an access-log entry triggers (for the metrics). */
  onAccessLogWake(listener: (appId: string) => void): () => void {
    this.wakeListeners.add(listener);
    return () => this.wakeListeners.delete(listener);
  }

  private accessLogWoke(appId: string): void {
    this.accessLogWakes.set(appId, (this.accessLogWakes.get(appId) ?? 0) + 1);
    for (const listener of this.wakeListeners) listener(appId);
  }

  /** What can wake this app now: the wake proxy, access logs, must-be-up ranges, manual wakes. */
  wakeSources(appId: string): WakeSources {
    return wakeSourcesOf({
      routing: this.options.engine.routingOf(appId),
      accessLogs: this.follower !== null,
      proxyListening: this.proxy !== null,
      accessLogWakes: this.accessLogWakes.get(appId) ?? 0,
    });
  }

  /** The wake proxy while it runs (the headless server on one port hands it the other Hosts). */
  get wakeProxy(): WakeProxy | null {
    return this.proxy?.instance ?? null;
  }

  /** Every app with a connection open through the wake proxy (for the metrics). */
  openConnections(): ReadonlyMap<string, AppConnections> {
    return this.proxy?.instance.openConnections() ?? new Map();
  }

  proxyStatus(): WakeProxyStatus {
    return { url: this.proxy?.url ?? null, problem: this.problem };
  }

  appTraffic(appId: string): AppTraffic & {
    accessLog: { connected: boolean; events: number } | null;
    connections: AppConnections;
  } {
    const status = this.follower?.status(appId) ?? null;
    return {
      ...this.stats.get(appId),
      connections: this.proxy?.instance.connectionsOf(appId) ?? { open: 0, inUse: 0 },
      accessLog: status ? { connected: status.connected, events: status.events } : null,
    };
  }

  /** Start, move or stop the wake proxy to match the routes and settings; one change at a time. */
  syncProxy(): Promise<void> {
    const before = JSON.stringify(this.proxyStatus());
    const run = this.syncing.then(async () => {
      const { config } = this.options;
      const hosts = (r: { enabled: boolean; hosts: string[] }) => r.enabled && r.hosts.length > 0;
      const wanted = !this.closed && (config.routes().some(hosts) || config.rules().some(hosts));
      const { wakeProxyPort: port, wakeProxyAddress: address } = config.settings();
      const key = `${address}:${port}`;
      if (this.proxy && (!wanted || this.proxy.key !== key)) {
        await this.proxy.instance.close();
        this.proxy = null;
      }
      if (!wanted) {
        this.problem = null;
        return;
      }
      if (this.proxy) return;
      const instance = new WakeProxy({
        engine: this.options.engine,
        routes: () => config.routes(),
        holdDeadlineMs: () => config.settings().holdDeadlineMs,
        failTimeoutMs: () => config.settings().failTimeoutMs,
        clock: this.options.clock,
        stats: this.stats,
        upstream: this.options.upstream,
        expectedWakeMs: this.options.expectedWakeMs,
        ...(this.options.log ? { log: this.options.log } : {}),
      });
      if (this.options.onServerPort) {
        // Served through the server's own port (the headless server hands it the other Hosts):
        // nothing of its own to bind, so two instances on one host never collide on it.
        this.proxy = { instance, key, url: null };
        this.problem = null;
        return;
      }
      try {
        const bound = await instance.listen(port, address);
        const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
        this.proxy = { instance, key, url: `http://${host}:${bound.port}` };
        this.problem = null;
      } catch (error) {
        await instance.close();
        this.problem = `the wake proxy cannot listen on ${address}:${port}: ${describeError(error)}`;
        this.options.log?.('error', this.problem);
      }
    });
    this.syncing = run
      .then(() => {
        if (JSON.stringify(this.proxyStatus()) !== before) for (const l of this.proxyListeners) l();
      })
      .catch(() => undefined);
    return run;
  }
}
