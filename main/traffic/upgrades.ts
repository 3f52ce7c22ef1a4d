/**
 * Upgrades through the wake proxy (WebSocket, and any other HTTP/1.1 `Upgrade`): the same Host
 * routing, framing checks and connection caps as requests, then the two sockets spliced both ways.
 *
 * - An Up app (or one in Error, or not yet known) is connected at once: the handshake goes to the app
 *   on a connection of its own (never a pooled one), its answer comes back as it is; a 101 is
 *   followed by the bytes of both sides, piped with backpressure.
 * - A sleeping app is asked for, and the upgrade is held like an API call (a socket cannot show the
 *   waking page), the client's bytes left unread in its socket; it goes on once the app is Up, and
 *   gets 504 with Retry-After at the fail timeout, or 503 at once when the app goes to Error.
 * - An upgrade the route's filters ignore never wakes an app (503 while it sleeps) and never counts
 *   as traffic; an upgrade request with a body is refused (its bytes would follow the handshake).
 * - While the connection is open it is counted in `Connections` (it keeps the app awake).
 */
import { request as httpRequest, type IncomingMessage, STATUS_CODES } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Log } from '../../shared/log.ts';
import { ignoredBecause } from '../../shared/traffic-filter.ts';
import type { Engine } from '../engine/engine.ts';
import type { Clock } from '../engine/ports.ts';
import { compiled } from './access-logs.ts';
import { heldAnswer } from './caller-policy.ts';
import type { Connections } from './connections.ts';
import { forwardedHeaders, HOP_BY_HOP, requestHost, unframed } from './framing.ts';
import { clientAddress } from './limits.ts';
import { cameThroughHere, LOOP_TEXT } from './loop-guard.ts';
import type { RefusedRequests } from './refused-requests.ts';
import type { TrafficStats } from './stats.ts';

/** The states in which a request asks for the app (and is held, or gets the waking page). */
export const SLEEPING: ReadonlySet<string> = new Set([
  'Down',
  'WaitingForShutdown',
  'WaitingForUp',
  'WaitingForInit',
]);

/** What the upgrades share with the wake proxy's requests. */
export interface UpgradeDeps {
  engine: Engine;
  clock: Clock;
  stats: TrafficStats;
  connections: Connections;
  refused: RefusedRequests;
  /** How long a held upgrade waits for the app to come up (the engine's fail timeout). */
  failTimeoutMs: () => number;
  expectedWakeMs?: (appId: string) => Promise<number | null>;
  appFor: (host: string) => string | undefined;
  upstream: (appId: string, ownerId: string) => Promise<{ origin: string; host: string }>;
  target: (upstream: { origin: string; host: string }) => { https: boolean; hostname: string; port: number };
  /** This reaper's Via pseudonym (loop-guard.ts): an upgrade that came through here gets 508. */
  via: string;
  /** Just woken and not answering yet (ready-gate.ts): resolves once the app answers; null when it does. */
  ready: (appId: string, host: string) => Promise<void> | null;
  log?: Log;
}

export class Upgrades {
  private readonly deps: UpgradeDeps;
  /** Sockets of upgrades under way or spliced, both sides (closed with the proxy). */
  private readonly sockets = new Set<Socket>();
  /** Upgrades spliced now (open both ways), for the metrics and the tests. */
  spliced = 0;

  constructor(deps: UpgradeDeps) {
    this.deps = deps;
  }

  /** The `upgrade` event of the wake proxy's server (or another server's, for the Hosts it hands over). */
  serve(req: IncomingMessage, duplex: Duplex, head: Buffer): void {
    const socket = duplex as Socket;
    this.keep(socket);
    // Nothing is read from the client until the app's own handshake answer is relayed.
    socket.pause();
    socket.on('error', (error) => {
      this.deps.log?.('info', `wake proxy: an upgraded client connection failed: ${error.message}`);
      socket.destroy();
    });
    this.handle(req, socket, head).catch((error: unknown) => {
      this.deps.log?.(
        'warn',
        `wake proxy: upgrade: ${error instanceof Error ? error.message : String(error)}`,
      );
      answer(socket, 502, 'Clever Reaper could not reach the app');
    });
  }

  /** Close every upgraded connection (the proxy closes). */
  close(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private keep(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private async handle(req: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    const target = req.url ?? '/';
    if (!target.startsWith('/')) return answer(socket, 400, 'Clever Reaper only serves origin-form requests');
    const framing =
      unframed(req) ??
      (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
        ? 'a body on an upgrade request'
        : null);
    if (framing) return answer(socket, 400, `Clever Reaper refuses this request: ${framing}`);
    if (cameThroughHere(req.headers.via, this.deps.via)) return answer(socket, 508, LOOP_TEXT);
    const host = requestHost(req.headers);
    const appId = this.deps.appFor(host);
    if (!appId)
      return answer(socket, 404, `Clever Reaper: no app is routed for this host (${host.slice(0, 100)})`);
    const { engine, clock, stats } = this.deps;
    const record = engine.get(appId);
    const routing = engine.routingOf(appId);
    const sourceIp = clientAddress(socket);
    const ignored = routing ? ignoredBecause({ path: target, sourceIp }, compiled(routing.filters)) : null;
    const now = clock.now();
    if (ignored) stats.ignored(appId, ignored, now);

    if (!record || !SLEEPING.has(record.state)) {
      if (!ignored && record) {
        stats.counted(appId, 'wake-proxy');
        engine.request(appId, 'wake-proxy', now).then(this.deps.refused.recorded, this.deps.refused.failed);
      }
      const ownerId = record?.ownerId ?? routing?.ownerId ?? '';
      const waiting = record?.state === 'Up' ? this.deps.ready(appId, host) : null;
      if (waiting) return this.afterReady(waiting, appId, ownerId, !ignored, req, socket, head);
      return this.forward(appId, ownerId, !ignored, req, socket, head);
    }
    if (ignored)
      return answer(socket, 503, `${record.name} is asleep; this request (${ignored}) does not wake it`, {
        'retry-after': '30',
      });
    stats.counted(appId, 'wake-proxy');
    return this.hold(appId, record.name, host, req, socket, head);
  }

  /** Passed on once the just-woken app answers (its bytes stay in the socket meanwhile). */
  private async afterReady(
    waiting: Promise<void>,
    appId: string,
    ownerId: string,
    counts: boolean,
    req: IncomingMessage,
    socket: Socket,
    head: Buffer,
  ): Promise<void> {
    await waiting;
    if (socket.destroyed) return;
    return this.forward(appId, ownerId, counts, req, socket, head);
  }

  /** A sleeping app: asked for, and the upgrade held until it is Up (its bytes stay in the socket). */
  private async hold(
    appId: string,
    name: string,
    host: string,
    req: IncomingMessage,
    socket: Socket,
    head: Buffer,
  ): Promise<void> {
    const { engine, refused } = this.deps;
    const recorded = await refused.settle(engine.request(appId, 'wake-proxy', this.deps.clock.now()));
    const ownerOf = () => engine.get(appId)?.ownerId ?? engine.routingOf(appId)?.ownerId ?? '';
    // Not recorded (the datastore refuses writes): nothing will start the app; pass it through.
    if (!recorded) return this.forward(appId, ownerOf(), true, req, socket, head);
    let gone: () => void = () => undefined;
    const left = new Promise<'gone'>((resolve) => {
      gone = () => resolve('gone');
      socket.once('close', gone);
    });
    let reached: Awaited<ReturnType<Engine['waitFor']>> | 'gone' | null;
    try {
      reached = await Promise.race([engine.waitFor(appId, ['Up', 'Error'], this.deps.failTimeoutMs()), left]);
    } catch {
      reached = null; // the fail timeout, or the app released
    } finally {
      socket.off('close', gone);
    }
    if (reached === 'gone' || socket.destroyed) return;
    if (reached?.state === 'Up') {
      const waiting = this.deps.ready(appId, host);
      if (waiting) return this.afterReady(waiting, appId, reached.ownerId, true, req, socket, head);
      return this.forward(appId, reached.ownerId, true, req, socket, head);
    }
    const retryAfter = Math.max(5, Math.round(((await this.deps.expectedWakeMs?.(appId)) ?? 30_000) / 1000));
    const held = heldAnswer(name, reached, engine.get(appId), retryAfter);
    answer(socket, held.status, JSON.stringify(held.body), {
      'content-type': 'application/json; charset=utf-8',
      'retry-after': String(held.retryAfter),
    });
  }

  private async forward(
    appId: string,
    ownerId: string,
    counts: boolean,
    req: IncomingMessage,
    socket: Socket,
    head: Buffer,
  ): Promise<void> {
    this.splice(appId, await this.deps.upstream(appId, ownerId), counts, req, socket, head);
  }

  /** The handshake to the app on a connection of its own; its answer relayed; a 101 spliced. */
  private splice(
    appId: string,
    upstream: { origin: string; host: string },
    counts: boolean,
    req: IncomingMessage,
    socket: Socket,
    head: Buffer,
  ): void {
    if (socket.destroyed) return;
    const { https, hostname, port } = this.deps.target(upstream);
    const incoming = req.headers;
    const headers = forwardedHeaders(req, upstream.host, this.deps.via);
    headers.connection = 'upgrade';
    headers.upgrade = incoming.upgrade ?? '';
    const outgoing = (https ? httpsRequest : httpRequest)({
      hostname,
      port,
      path: req.url ?? '/',
      method: req.method,
      headers,
      agent: false,
      ...(https ? { servername: upstream.host } : {}),
    });
    const open = this.deps.connections.opened(appId, socket, counts);
    let answeredYet = false;
    socket.once('close', () => {
      this.deps.connections.closed(open);
      if (!answeredYet) outgoing.destroy();
    });
    outgoing.on('upgrade', (answered, upstreamSocket, upstreamHead) => {
      answeredYet = true;
      this.keep(upstreamSocket);
      if (socket.destroyed) return upstreamSocket.destroy();
      socket.write(headLines(answered, answered.rawHeaders));
      if (upstreamHead.length > 0) socket.write(upstreamHead);
      if (head.length > 0) upstreamSocket.write(head);
      socket.setNoDelay(true);
      upstreamSocket.setNoDelay(true);
      this.spliced++;
      upstreamSocket.on('error', (error) => {
        this.deps.log?.(
          'info',
          `wake proxy: ${appId}: an upgraded connection to the app failed: ${error.message}`,
        );
        upstreamSocket.destroy();
      });
      // Each side closed ends the other once what it was sent is written.
      upstreamSocket.once('close', () => {
        this.spliced--;
        socket.destroySoon();
      });
      socket.once('close', () => upstreamSocket.destroySoon());
      upstreamSocket.pipe(socket);
      socket.pipe(upstreamSocket);
    });
    // No upgrade: the app's answer as it is, and the connection closed (it cannot carry on as HTTP).
    outgoing.on('response', (answered) => {
      answeredYet = true;
      const kept: string[] = [];
      const raw = answered.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2)
        if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
      kept.push('connection', 'close');
      socket.write(headLines(answered, kept));
      answered.pipe(socket);
      answered.on('error', () => socket.destroy());
    });
    outgoing.on('error', (error) => {
      this.deps.log?.('warn', `wake proxy: ${appId}: ${error.message}`);
      if (answeredYet) socket.destroy();
      else answer(socket, 502, 'Clever Reaper could not reach the app');
    });
    outgoing.end();
  }
}

/** The status line and headers of an answer, as they go back to the client. */
function headLines(answered: IncomingMessage, raw: readonly string[]): string {
  let text = `HTTP/1.1 ${answered.statusCode ?? 502} ${answered.statusMessage ?? ''}\r\n`;
  for (let i = 0; i + 1 < raw.length; i += 2) text += `${raw[i]}: ${raw[i + 1]}\r\n`;
  return `${text}\r\n`;
}

/** An answer written on a socket that is not upgraded: text (or JSON), then the connection closed. */
function answer(socket: Socket, status: number, body: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed || !socket.writable) return;
  const all: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  let text = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`;
  for (const [name, value] of Object.entries(all)) text += `${name}: ${value}\r\n`;
  socket.end(`${text}\r\n${body}`);
}
