/**
 * The wake proxy: a local reverse proxy that routes by Host to the app of the route naming that host.
 *
 * - An Up app (or one in Error, which the reaper leaves alone) is proxied, and the request counts as
 *   traffic unless the route's filters ignore it.
 * - A sleeping app is asked for at once (the engine starts it without waiting for the job; many
 *   requests start it once). A browser gets the "waking up" page at once; another client, as its
 *   route says, is held until the app answers, then proxied (504 at the fail timeout, 503 at once
 *   when the app goes to Error), or told to come back (503 with Retry-After at once).
 * - A request the filters ignore (a health check) never wakes an app: it gets 503 while it sleeps.
 * - A Host no route names gets 404, and a request for another origin (absolute-form target, CONNECT)
 *   gets 400/405: never an open proxy.
 * - A body is never sent without framing (its Content-Length, or chunked), whatever the method: a GET
 *   with a chunked body cannot smuggle a second request onto the pooled connection to the upstream.
 * - A request the engine cannot record (the datastore refuses writes) is passed through, as for an app
 *   in Error; it is said once, and requests are recorded again when writes work again.
 * - Connections are capped in total and per client address, and so are the live-status streams; a
 *   status client that does not read is dropped (see limits.ts).
 * - Upgrades (WebSockets) follow the same rules in upgrades.ts; while a connection to an app is open
 *   (an upgrade, or a request in flight: a stream, a download), it keeps the app awake (connections.ts).
 */
import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AppRecord } from '../../shared/domain.ts';
import { describeError, type Log } from '../../shared/log.ts';
import type { Route } from '../../shared/routes.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { ignoredBecause } from '../../shared/traffic-filter.ts';
import type { Engine } from '../engine/engine.ts';
import type { Clock } from '../engine/ports.ts';
import { compiled } from './access-logs.ts';
import {
  answerHeld,
  answerIgnored,
  answerUnavailable,
  CallerPolicy,
  plain,
  quietBecause,
} from './caller-policy.ts';
import { type AppConnections, Connections } from './connections.ts';
import { forwardedHeaders, HOP_BY_HOP, keepFraming, refuse, requestHost, unframed } from './framing.ts';
import { duplicateHost } from './host-header.ts';
import { clientAddress, Places, type ProxyLimits, proxyLimits } from './limits.ts';
import { cameThroughHere, LOOP_TEXT, viaPseudonym, withVia } from './loop-guard.ts';
import { type FirstAnswer, probeUpstream, ReadyGate } from './ready-gate.ts';
import { RefusedRequests } from './refused-requests.ts';
import type { TrafficStats } from './stats.ts';
import { StatusStreams } from './status-streams.ts';
import { SLEEPING, Upgrades } from './upgrades.ts';
import { answerWakingPage, STATUS_PATH } from './waking-page.ts';

/** Where an app's requests go: an origin to connect to, and the Host header it expects. */
export interface Upstream {
  origin: string;
  host: string;
}

export interface WakeProxyOptions {
  engine: Engine;
  routes: () => readonly Route[];
  /** After a wake, how long the front's "not routed yet" 404 is waited out (the ready gate's limit). */
  holdDeadlineMs: () => number;
  /** How long a held caller waits for the app to come up: the engine's fail timeout (default 15 min). */
  failTimeoutMs?: () => number;
  clock: Clock;
  stats: TrafficStats;
  /** Synchronous when known (the hot path then allocates no promise), a promise when it must be read. */
  upstream: (appId: string, ownerId: string) => Promise<Upstream>;
  /** The usual duration of this app's wakes, for the waking page. */
  expectedWakeMs?: (appId: string) => Promise<number | null>;
  log?: Log;
  /** Connection and stream caps (default: the process's, see limits.ts). */
  limits?: Partial<ProxyLimits>;
  /** Real time between two status events of a live-status stream (default 1 s). */
  statusEveryMs?: number;
  /** This reaper's instance id, for its `Via` entry (default: one per proxy). */
  instanceId?: string;
  /** The app answered the first request of a wake (the wait its visitor had; the history says it too). */
  onFirstAnswer?: (answer: FirstAnswer) => void;
}

export class WakeProxy {
  private readonly options: WakeProxyOptions;
  private server: Server | null = null;
  private hosts: { routes: readonly Route[]; map: Map<string, string> } | null = null;
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });
  private readonly targets = new Map<string, { https: boolean; hostname: string; port: number }>();
  private readonly limits: ProxyLimits;
  private readonly connections: Places;
  private readonly streams: StatusStreams;
  private readonly refused: RefusedRequests;
  /** Open connections to the apps (they keep an app awake, see connections.ts). */
  private readonly open: Connections;
  private readonly upgrades: Upgrades;
  /** Connections closed at once because a cap was reached (in total, or for their address). */
  turnedAway = 0;
  /** This reaper's name in the Via header of what it forwards (loop-guard.ts). */
  readonly via: string;
  private readonly gate: ReadyGate;
  private readonly policy: CallerPolicy;

  constructor(options: WakeProxyOptions) {
    this.options = options;
    this.limits = { ...proxyLimits(), ...options.limits };
    this.connections = new Places(() => this.limits.maxConnectionsPerAddress);
    this.refused = new RefusedRequests('wake proxy', () => options.engine.storage === null, options.log);
    this.via = viaPseudonym(options.instanceId);
    this.policy = new CallerPolicy(options.routes);
    this.gate = this.readyGate();
    this.open = new Connections({
      engine: options.engine,
      routes: options.routes,
      clock: options.clock,
      recorded: this.refused.recorded,
      failed: this.refused.failed,
    });
    this.upgrades = new Upgrades({
      ...options,
      connections: this.open,
      refused: this.refused,
      appFor: (host) => this.appFor(host),
      via: this.via,
      failTimeoutMs: () => this.failTimeoutMs(),
      ready: (appId, host) => {
        const record = options.engine.get(appId);
        if (record?.state !== 'Up') return null;
        return this.gate.wait(appId, record.cameUpAt, this.policy.doorFor(host).readyDelayMs);
      },
      target: (upstream) => this.target(upstream),
    });
    this.streams = new StatusStreams({
      engine: options.engine,
      clock: options.clock,
      limits: this.limits,
      everyMs: options.statusEveryMs ?? 1000,
      gate: this.gate,
      ...(options.log ? { log: options.log } : {}),
    });
  }

  /** Live-status streams open now, and those dropped for not reading. */
  get statusStreams(): { open: number; dropped: number } {
    return { open: this.streams.open, dropped: this.streams.dropped };
  }

  /** Open connections of one app: WebSockets and other upgrades, requests and streams in flight. */
  connectionsOf(appId: string): AppConnections {
    return this.open.of(appId);
  }

  /** Every app with an open connection. */
  openConnections(): Map<string, AppConnections> {
    return this.open.all();
  }

  get address(): AddressInfo | null {
    return (this.server?.address() as AddressInfo | null) ?? null;
  }

  async listen(port: number, host = '127.0.0.1'): Promise<AddressInfo> {
    const server = createServer({ requireHostHeader: true }, (req, res) => this.serve(req, res));
    // CONNECT never reaches the request handler: refuse it here (not a forward proxy).
    server.on('connect', (_req, socket) => {
      socket.end('HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
    server.on('upgrade', (req, socket, head) => this.serveUpgrade(req, socket, head));
    server.on('clientError', (_error, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    });
    // Past the cap Node closes a new connection at once; per address, it is closed here.
    server.maxConnections = this.limits.maxConnections;
    server.on('drop', () => this.turnedAway++);
    server.on('connection', (socket: Socket) => {
      const address = clientAddress(socket);
      if (!this.connections.take(address)) {
        this.turnedAway++;
        socket.destroy();
        return;
      }
      socket.once('close', () => this.connections.release(address));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    return server.address() as AddressInfo;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.streams.close();
    this.gate.close();
    this.open.close();
    this.upgrades.close();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Answer one request: its own listener's, or one another server hands over (the headless server on
   * one port, for the Hosts that are not its own).
   */
  serve(req: IncomingMessage, res: ServerResponse): void {
    const failed = (error: unknown) => {
      this.options.log?.('warn', `wake proxy: ${describeError(error)}`);
      if (!res.headersSent) plain(res, 502, 'Clever Reaper could not reach the app');
      else res.destroy();
    };
    this.handle(req, res).catch(failed);
  }

  /** Answer one upgrade (a WebSocket): its own listener's, or one another server hands over. */
  serveUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.upgrades.serve(req, socket, head);
  }

  /** The app a Host routes to (enabled routes, then the apps rules manage). */
  appFor(host: string): string | undefined {
    const routes = this.options.routes();
    if (this.hosts?.routes !== routes) {
      const map = new Map<string, string>();
      for (const r of routes) if (r.enabled) for (const h of r.hosts) map.set(h, r.appId);
      this.hosts = { routes, map };
    }
    // Host names of rule-managed apps: the rule's templates, filled in per app by the engine.
    return this.hosts.map.get(host) ?? this.options.engine.appForHost(host);
  }

  /** Straight through for an app that is up (the hot path); held while a sleeping app wakes. */
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    if (!target.startsWith('/')) return plain(res, 400, 'Clever Reaper only serves origin-form requests');
    const framing = unframed(req) ?? duplicateHost(req);
    if (framing) return refuse(res, framing);
    if (cameThroughHere(req.headers.via, this.via)) return plain(res, 508, LOOP_TEXT);
    const host = requestHost(req.headers);
    const appId = this.appFor(host);
    if (!appId)
      return plain(res, 404, `Clever Reaper: no app is routed for this host (${host.slice(0, 100)})`);
    const { engine } = this.options;
    const record = engine.get(appId);
    const routing = engine.routingOf(appId);

    if (target === STATUS_PATH || target.startsWith(`${STATUS_PATH}?`))
      return this.streams.serve(appId, req, res);

    const path = target;
    const sourceIp = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const door = this.policy.doorFor(host);
    const ignored =
      (routing ? ignoredBecause({ path, sourceIp }, compiled(routing.filters)) : null) ??
      quietBecause(req.headers['user-agent'], door);
    const now = this.options.clock.now();
    if (ignored) this.options.stats.ignored(appId, ignored, now);
    const accept = req.headers.accept ?? '';
    const browser = (req.method === 'GET' || req.method === 'HEAD') && accept.includes('text/html');

    if (!record || !SLEEPING.has(record.state)) {
      // Up, Error (left alone, as if the reaper was not there), or not yet known: straight through.
      if (!ignored && record) {
        this.options.stats.counted(appId, 'wake-proxy');
        engine.request(appId, 'wake-proxy', now).then(this.refused.recorded, this.refused.failed);
      }
      // Just woken, and the app has not answered since (ready-gate.ts): held until it does.
      const waiting =
        record?.state === 'Up' ? this.gate.wait(appId, record.cameUpAt, door.readyDelayMs) : null;
      if (waiting) return this.afterGate(waiting, record!, req, res);
      return this.forward(appId, record?.ownerId ?? routing?.ownerId ?? '', req, res, !ignored);
    }

    if (ignored) return answerIgnored(res, record, door, ignored);
    this.options.stats.counted(appId, 'wake-proxy');
    this.gate.asked(appId, now);
    const asking = this.refused.settle(engine.request(appId, 'wake-proxy', now));

    if (browser) return this.pageOrPass(record, asking, req, res);
    if (door.callers === 'unavailable') {
      req.resume();
      return this.retryAfter(appId).then((seconds) => answerUnavailable(res, record, seconds));
    }
    return this.hold(record, asking, req, res, door.readyDelayMs);
  }

  /** Seconds a caller told to come back should wait: the app's usual wake, at least 5 s. */
  private async retryAfter(appId: string): Promise<number> {
    return Math.max(5, Math.round(((await this.options.expectedWakeMs?.(appId)) ?? 30_000) / 1000));
  }

  /** Forward once the app answered (its body stays in the socket meanwhile). */
  private async afterGate(
    waiting: Promise<void>,
    record: AppRecord,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    req.pause();
    await waiting;
    if (res.destroyed) return;
    return this.forward(record.appId, record.ownerId, req, res);
  }

  /** The ready gate: its probe goes where the app's requests go, with this reaper's Via. */
  private readyGate(): ReadyGate {
    const { options } = this;
    const agents = { http: this.httpAgent, https: this.httpsAgent };
    return new ReadyGate({
      clock: options.clock,
      limitMs: options.holdDeadlineMs,
      probe: async (appId) => {
        const r = options.engine.get(appId);
        const upstream = await options.upstream(
          appId,
          r?.ownerId ?? options.engine.routingOf(appId)?.ownerId ?? '',
        );
        return probeUpstream(upstream, agents, withVia(undefined, this.via, '1.1'));
      },
      engine: options.engine,
      onFirstAnswer: (answer) => {
        options.onFirstAnswer?.(answer);
        if (answer.timedOut) return;
        options.engine
          .firstAnswer(answer.appId, answer.waitMs, answer.afterUpMs)
          .catch((error: unknown) =>
            options.log?.('warn', `wake proxy: the first answer of ${answer.appId}: ${describeError(error)}`),
          );
      },
    });
  }

  /**
   * A browser: the waking page at once, unless the request could not be recorded (a refused write
   * fails at once, before the engine waits for anything): then the app's own answer, passed through.
   */
  private async pageOrPass(
    record: AppRecord,
    asking: Promise<boolean>,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    // The journal writes at the end of the event loop's turn: a refused write is known within two.
    const turns = new Promise<null>((resolve) => setImmediate(() => setImmediate(resolve, null)));
    const recorded = await Promise.race([asking, turns]);
    // Not recorded, or the datastore refuses writes now (this request's write queued behind another's).
    if (recorded === false || (recorded === null && this.options.engine.storage !== null))
      return this.forward(record.appId, record.ownerId, req, res);
    await this.wakingPage(record, req, res);
  }

  /** Not a browser, `hold`: the request held (its body stays in the socket) until the app answers. */
  private async hold(
    record: AppRecord,
    asking: Promise<boolean>,
    req: IncomingMessage,
    res: ServerResponse,
    readyDelayMs: number,
  ): Promise<void> {
    const { engine } = this.options;
    const { appId } = record;
    req.pause();
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    // Not recorded (the datastore refuses writes): nothing will start the app; pass it through.
    if (!(await asking)) return this.forward(appId, record.ownerId, req, res);
    let reached: AppRecord | null;
    try {
      reached = await Promise.race([
        engine.waitFor(appId, ['Up', 'Error'], this.failTimeoutMs()),
        new Promise<never>((_, reject) =>
          gone.signal.addEventListener('abort', () => reject(new Error('client gone'))),
        ),
      ]);
    } catch {
      reached = null; // the fail timeout, the app released, or the client gone
    }
    if (gone.signal.aborted) return;
    if (reached?.state === 'Up') {
      const waiting = this.gate.wait(appId, reached.cameUpAt, readyDelayMs);
      if (waiting) await waiting;
      if (gone.signal.aborted) return;
      return this.forward(appId, reached.ownerId, req, res);
    }
    answerHeld(res, record.name, reached, engine.get(appId), await this.retryAfter(appId));
  }

  /** How long a held caller waits for the app to come up. */
  private failTimeoutMs(): number {
    return this.options.failTimeoutMs?.() ?? DEFAULT_SETTINGS.failTimeoutMs;
  }

  private async wakingPage(record: AppRecord, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const expectedMs = (await this.options.expectedWakeMs?.(record.appId)) ?? null;
    answerWakingPage(res, record.name, expectedMs, req.headers['accept-language']);
  }

  /** Where to connect for an upstream origin, parsed once. */
  private target(upstream: Upstream): { https: boolean; hostname: string; port: number } {
    let t = this.targets.get(upstream.origin);
    if (!t) {
      const url = new URL(upstream.origin);
      const https = url.protocol === 'https:';
      t = { https, hostname: url.hostname, port: Number(url.port) || (https ? 443 : 80) };
      this.targets.set(upstream.origin, t);
    }
    return t;
  }

  /** Pass the request to the app, once its upstream is known. */
  private async forward(
    appId: string,
    ownerId: string,
    req: IncomingMessage,
    res: ServerResponse,
    counts = true,
  ): Promise<void> {
    this.pass(appId, await this.options.upstream(appId, ownerId), req, res, counts);
  }

  /** Pass the request to the app and its answer back, streaming both ways (the hot path). */
  private pass(
    appId: string,
    upstream: Upstream,
    req: IncomingMessage,
    res: ServerResponse,
    counts: boolean,
  ): void {
    const { https, hostname, port } = this.target(upstream);
    const incoming = req.headers;
    const headers = forwardedHeaders(req, upstream.host, this.via);
    keepFraming(incoming, headers);
    const outgoing = (https ? httpsRequest : httpRequest)(
      {
        hostname,
        port,
        path: req.url ?? '/',
        method: req.method,
        headers,
        agent: https ? this.httpsAgent : this.httpAgent,
        ...(https ? { servername: upstream.host } : {}),
      },
      (answer) => {
        const out: Record<string, string | string[]> = {};
        const answered = answer.headers;
        for (const name in answered) {
          const value = answered[name];
          if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    outgoing.on('error', (error) => {
      this.options.log?.('warn', `wake proxy: ${appId}: ${error.message}`);
      if (!res.headersSent) plain(res, 502, 'Clever Reaper could not reach the app');
      else res.destroy();
    });
    // In flight, the request is an open connection (a stream, a long poll, a download, an upload).
    const open = this.open.opened(appId, req.socket, counts);
    res.on('close', () => {
      this.open.closed(open);
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
    req.resume();
  }
}
