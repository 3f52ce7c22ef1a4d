/**
 * The HTTP transport of the ReaperApi: the admin API under /api (JSON, bearer token), the event
 * stream (server-sent events) and the built dashboard. node:http only.
 *
 * Also `GET /healthz` (200 "ok" while the process serves) and `GET /readyz` (200 "ready", or 503 and
 * a one-word reason), with no token and no detail, for platforms and load balancers. With
 * `otherHosts` (one port for everything, as on Clever Cloud), a request whose Host is not one of the
 * server's own names (its allowed hosts, its addresses, loopback) is handed over untouched: to the
 * wake proxy.
 *
 * Routing comes from the shared table (shared/api-http.ts) that the dashboard's client also uses;
 * validation, errors and behaviour are the service's (the same for the IPC transport).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import {
  type CallName,
  type CallOutputs,
  parseJsonBody,
  type ReaperEvent,
  type ReaperListener,
  type Snapshot,
} from '../../shared/api.ts';
import { ERROR_STATUS, toErrorBody } from '../../shared/api-errors.ts';
import {
  API_PREFIX,
  EVENTS_PATH,
  HISTORY_PATH,
  HTTP_ROUTES,
  type HttpRoute,
  METRICS_PATH,
  matchPath,
  successStatus,
} from '../../shared/api-http.ts';
import { EVENTS_AFTER_PARAM, FIRST_SCREEN_PATH } from '../../shared/first-screen.ts';
import { describeError, type Log } from '../../shared/log.ts';
import { PEOPLE_ROUTES } from '../../shared/people.ts';
import { SNAPSHOT_BY_APP, SNAPSHOT_FORM_PARAM, snapshotByApp } from '../../shared/snapshot-form.ts';
import { actingAs } from '../engine/acting.ts';
import { CONTENT_TYPE as METRICS_CONTENT_TYPE } from '../metrics/registry.ts';
import { refuse } from '../traffic/framing.ts';
import { duplicateHost } from '../traffic/host-header.ts';
import { methodNotAllowed, sendError, sendJson, streamExport } from './answers.ts';
import { type Auditor, audited, eventForViewer, forViewer } from './audited.ts';
import { EventBacklog } from './event-backlog.ts';
import { firstPage } from './first-page.ts';
import { Gate } from './gate.ts';
import { SECURITY_HEADERS, serveStatic } from './static-files.ts';

/** What the transport needs from the service. */
export interface ApiBackend {
  call(name: CallName, raw: unknown): Promise<unknown>;
  subscribe(listener: ReaperListener): () => void;
  clock(): { now: number; timeScale: number };
  /** GET /metrics: the Prometheus text format. */
  metricsText?(): string;
  /** GET /api/history?format=csv|json: the filtered history as a file, streamed a chunk at a time. */
  historyExport?(raw: unknown): {
    filename: string;
    contentType: string;
    chunks: AsyncIterable<string>;
  };
}

export interface HttpServerOptions {
  backend: ApiBackend;
  token: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The built dashboard; null serves the API alone. */
  staticDir: string | null;
  /** Real time between two heartbeats of the event stream. */
  heartbeatMs?: number;
  /**
   * Host names it answers to besides its own address and loopback (--allowed-host,
   * REAPER_ALLOWED_HOSTS). On 0.0.0.0 or ::, none given lets any Host pass; some given, only those
   * and the machine's own addresses.
   */
  allowedHosts?: string[];
  /** Connections held at once (the wake proxy has caps of its own); default 256. */
  maxConnections?: number;
  /** GET /readyz: null when ready, else a one-word reason (readiness.ts); without it, always ready. */
  readiness?: () => Promise<string | null>;
  /**
   * One port for the dashboard, the API and the wake proxy: a request for a Host that is not this
   * server's own (allowedHosts, its addresses, loopback) goes here, before any header is set.
   */
  otherHosts?: (req: IncomingMessage, res: ServerResponse) => void;
  /** An upgrade (a WebSocket) for another Host, with `otherHosts`; the server's own take none (400). */
  otherHostsUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Who may call what (people, roles, sessions); default: the bootstrap `token` alone, an admin. */
  gate?: Gate;
  /** Where configuration changes are recorded with who made them (audited.ts). */
  audit?: Auditor;
  log?: Log;
}

/** Liveness: 200 "ok" while the process serves HTTP. */
export const HEALTH_PATH = '/healthz';
/** Readiness: 200 "ready", or 503 with a one-word reason. */
export const READY_PATH = '/readyz';

export interface RunningHttpServer {
  /** The server's base URL, e.g. http://127.0.0.1:7410 */
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
/** An event-stream client that lets this much pile up unread is dropped (it reconnects and resyncs). */
const MAX_UNREAD = 8 * 1024 * 1024;

const ROUTES = Object.entries(HTTP_ROUTES) as [CallName, HttpRoute][];

export function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { backend, token, log } = options;
  const gate = options.gate ?? new Gate({ bootstrap: token, ...(log ? { log } : {}) });
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new Set<ServerResponse>();
  const backlog = new EventBacklog();
  const offBacklog = backend.subscribe((event, seq) => backlog.push(event, seq));
  // A signed-in browser's page comes with its first screen in it (first-page.ts).
  const staticDir = options.staticDir;
  const servePage = staticDir
    ? firstPage({
        page: join(staticDir, 'index.html'),
        // Built beside it (out/renderer-ssr, vite.config.ts).
        entry: join(staticDir, '..', 'renderer-ssr', 'ssr.js'),
        gate,
        snapshot: async () => (await backend.call('snapshot', {})) as Snapshot,
        ...(log ? { log } : {}),
      })
    : null;

  const server = createServer((req, res) => {
    // Routed (and checked) by Host: a request naming two is refused before either is read.
    const twoHosts = duplicateHost(req);
    if (twoHosts) return refuse(res, twoHosts);
    if (options.otherHosts && !isOwnHost(hostOf(req), options.host, options.allowedHosts ?? [])) {
      options.otherHosts(req, res);
      return;
    }
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    handle(req, res).catch((error: unknown) => {
      const body = toErrorBody(error);
      const status = ERROR_STATUS[body.error.code];
      const what = `${req.method} ${oneLine((req.url ?? '/').split('?')[0]!, 120)}`;
      // A refused request is the caller's business: one short line, what it sent cut and escaped.
      // A failure of the server keeps its stack.
      if (status < 500) log?.('info', `${what} answered ${status}: ${oneLine(body.error.message, 200)}`);
      else log?.('error', `${what}: ${describeError(error, { stack: true })}`);
      if (!res.headersSent) sendError(res, body);
      else res.destroy();
    });
  });
  server.maxConnections = options.maxConnections ?? 256;
  const upgradeOther = options.otherHosts ? options.otherHostsUpgrade : undefined;
  if (upgradeOther)
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!isOwnHost(hostOf(req), options.host, options.allowedHosts ?? []))
        return upgradeOther(req, socket, head);
      socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const probe = (req.url ?? '/').split('?')[0];
    if (probe === HEALTH_PATH || probe === READY_PATH) {
      // Before the Host check: a platform's probe names whatever it likes, and the answer holds nothing.
      res.setHeader('cache-control', 'no-store');
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, ['GET']);
      const reason = probe === READY_PATH && options.readiness ? await options.readiness() : null;
      const text = reason ?? (probe === READY_PATH ? 'ready' : 'ok');
      res.writeHead(reason === null ? 200 : 503, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    const refused = refuseForeign(req, options.host, options.allowedHosts ?? []);
    if (refused) {
      sendError(res, { error: { code: 'forbidden', message: refused } });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const metrics = path === METRICS_PATH && backend.metricsText !== undefined;
    if (!metrics && path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
      if ((path === '/' || path === '/index.html') && (await servePage?.page(req, res))) return;
      await serveStatic(req, res, path, options.staticDir);
      return;
    }
    res.setHeader('cache-control', 'no-store');
    const method = req.method ?? 'GET';
    const people = Gate.match(method, path);
    if (people?.call === 'signIn') {
      const body = await readJson(req);
      if (body !== INVALID) await gate.signIn(req, res, body);
      return;
    }
    const who = await gate.authenticate(req, res);
    if (!who) return;
    if (people) {
      const forbidden = gate.refusalFor(who, PEOPLE_ROUTES[people.call].role);
      if (forbidden) return sendError(res, forbidden);
      const body = await readJson(req);
      if (body === INVALID) return;
      await gate.serve(req, res, who, people.call, people.params, body, url.searchParams);
      return;
    }
    if (metrics) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, ['GET']);
      const text = backend.metricsText!() + gate.throttle.metricsText();
      res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'content-length': Buffer.byteLength(text) });
      res.end(req.method === 'HEAD' ? undefined : text);
      return;
    }
    if (
      path === HISTORY_PATH &&
      req.method === 'GET' &&
      url.searchParams.has('format') &&
      backend.historyExport
    ) {
      await streamExport(res, backend.historyExport(Object.fromEntries(url.searchParams)));
      return;
    }
    if (path.startsWith(`${FIRST_SCREEN_PATH}/`)) {
      if (req.method !== 'GET') return methodNotAllowed(res, ['GET']);
      const id = path.slice(FIRST_SCREEN_PATH.length + 1);
      if (servePage) await servePage.data(req, res, who, id);
      else sendError(res, { error: { code: 'not-found', message: 'this server renders no first screen' } });
      return;
    }
    if (path === EVENTS_PATH) {
      if (req.method !== 'GET') return methodNotAllowed(res, ['GET']);
      const after = url.searchParams.get(EVENTS_AFTER_PARAM);
      openStream(req, res, who.role === 'viewer', after === null ? null : Number(after));
      return;
    }
    const matches = ROUTES.flatMap(([name, route]) => {
      const params = matchPath(route.path, path);
      return params ? [{ name, route, params }] : [];
    });
    if (matches.length === 0) {
      sendError(res, { error: { code: 'not-found', message: `no endpoint ${method} ${path}` } });
      return;
    }
    const match = matches.find((m) => m.route.method === method);
    if (!match)
      return methodNotAllowed(
        res,
        matches.map((m) => m.route.method),
      );

    const body = await readJson(req);
    if (body === INVALID) return;
    // The dashboard's form of the snapshot (shared/snapshot-form.ts): the transport's, not the call's.
    const byApp = match.name === 'snapshot' && url.searchParams.get(SNAPSHOT_FORM_PARAM) === SNAPSHOT_BY_APP;
    if (byApp) url.searchParams.delete(SNAPSHOT_FORM_PARAM);
    const input: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (match.route.bodyField) {
      if (body !== undefined) input[match.route.bodyField] = body;
    } else if (body !== undefined) {
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        sendError(res, { error: { code: 'invalid-input', message: 'the body must be a JSON object' } });
        return;
      }
      Object.assign(input, body);
    }
    Object.assign(input, match.params);
    const forbidden = gate.refusal(who, match.name, input);
    if (forbidden) return sendError(res, forbidden);
    // The call is the person's: its history entries say who (main/engine/acting.ts).
    const by = { name: who.name, via: who.via };
    const result = await actingAs(by, () => audited(backend, who, match.name, input, options.audit));
    const shown = who.role === 'viewer' ? forViewer(match.name, result) : result;
    const answer = byApp ? snapshotByApp(shown as CallOutputs['snapshot']) : shown;
    await sendJson(res, successStatus(match.route, answer), answer, req.headers['accept-encoding']);

    async function readJson(r: IncomingMessage): Promise<unknown> {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of r) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY) {
          sendError(res, { error: { code: 'invalid-input', message: 'the body is larger than 1 MB' } });
          r.destroy();
          return INVALID;
        }
        chunks.push(chunk as Buffer);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return undefined;
      const type = r.headers['content-type'] ?? '';
      if (!/^application\/json\b/i.test(type)) {
        sendError(res, {
          error: { code: 'invalid-input', message: 'the body must be JSON (Content-Type: application/json)' },
        });
        return INVALID;
      }
      try {
        return parseJsonBody(text);
      } catch (error) {
        if (!(error instanceof SyntaxError)) {
          sendError(res, toErrorBody(error));
          return INVALID;
        }
        sendError(res, {
          error: {
            code: 'invalid-input',
            message: `the body is not valid JSON: ${describeError(error)}`,
          },
        });
        return INVALID;
      }
    }
  }

  /** Server-sent events: a `clock` heartbeat at once and every heartbeatMs, then every ReaperEvent. */
  function openStream(
    req: IncomingMessage,
    res: ServerResponse,
    viewer: boolean,
    after: number | null,
  ): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    streams.add(res);
    // The event id is the service's sequence number (0 for heartbeats, which every snapshot includes).
    const send = (event: ReaperEvent, seq = 0) => {
      if (res.writableLength > MAX_UNREAD) {
        log?.('warn', 'an event-stream client reads too slowly: dropped (it reconnects)');
        cleanup();
        res.destroy();
        return;
      }
      res.write(`id: ${seq}\ndata: ${JSON.stringify(viewer ? eventForViewer(event) : event)}\n\n`);
    };
    const heartbeat = () => send({ type: 'clock', ...backend.clock() });
    const off = backend.subscribe(send);
    const timer = setInterval(heartbeat, heartbeatMs);
    timer.unref();
    heartbeat();
    // The events since the page's own snapshot (event-backlog.ts), before any later one.
    if (after !== null) for (const e of backlog.after(after) ?? []) send(e.event, e.seq);
    const cleanup = () => {
      off();
      clearInterval(timer);
      streams.delete(res);
    };
    req.on('close', cleanup);
    res.on('error', cleanup);
  }

  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolvePromise({
        url: `http://${host}:${port}`,
        port,
        // Event streams end at once; requests under way get a second to finish, then every
        // connection is closed (a browser keeps idle keep-alive connections open otherwise).
        close: () =>
          new Promise<void>((done) => {
            offBacklog();
            for (const s of streams) s.end();
            streams.clear();
            server.close(() => done());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 1000).unref();
          }),
      });
    });
  });
}

const INVALID = Symbol('invalid body');

/**
 * Text a client chose, made fit for one log line: control characters (line breaks, terminal escapes)
 * and bidirectional overrides escaped as \uXXXX, cut at `max` characters.
 */
export function oneLine(text: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) =>
    c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > max ? `${escaped.slice(0, max)}… (${escaped.length - max} more)` : escaped;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

let addresses: { found: Set<string>; at: number } | null = null;

/** The addresses of this machine's interfaces, as a Host header names them (read every 10 s at most). */
function interfaceAddresses(): Set<string> {
  const now = Date.now();
  if (addresses && now - addresses.at < 10_000) return addresses.found;
  const found = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) found.add(a.family === 'IPv6' ? `[${a.address.toLowerCase()}]` : a.address);
  addresses = { found, at: now };
  return found;
}

/** The Host a request names, lowercase, without its port or a final dot. */
function hostOf(req: IncomingMessage): string {
  return (req.headers.host ?? '').trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

/**
 * A Host that names this server: its bound address, loopback, an allowed name, or (bound to every
 * address) one of the machine's addresses.
 */
export function isOwnHost(host: string, boundHost: string, allowedHosts: readonly string[]): boolean {
  if (!host) return false;
  const ownAddress =
    host === boundHost.toLowerCase() || (boundHost.includes(':') && host === `[${boundHost}]`);
  const wildcard = boundHost === '0.0.0.0' || boundHost === '::';
  return (
    ownAddress ||
    isLoopback(host) ||
    allowedHosts.includes(host) ||
    (wildcard && interfaceAddresses().has(host))
  );
}

/**
 * Why a request must be refused, or null. The Host must be an address of this server, loopback, or
 * an allowed name (a page of another site whose name was re-pointed at this server, DNS rebinding, is
 * refused); an Origin, when a browser sends one, must be this server's own (no cross-site request; no
 * CORS header is ever sent). Bound to every address (0.0.0.0, ::) without allowed names, any Host
 * passes (the command line warns); with allowed names, those and the machine's own addresses.
 */
export function refuseForeign(
  req: IncomingMessage,
  boundHost: string,
  allowedHosts: readonly string[],
): string | null {
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const wildcard = boundHost === '0.0.0.0' || boundHost === '::';
  const acceptable =
    isOwnHost(host, boundHost, allowedHosts) || (wildcard && allowedHosts.length === 0 && host !== '');
  if (!host || !acceptable) {
    return `this server only answers to its own address, not '${host.slice(0, 100)}' (name it with --allowed-host or REAPER_ALLOWED_HOSTS)`;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    const originHost = URL.canParse(origin) ? new URL(origin).host.toLowerCase() : '';
    if (originHost !== (req.headers.host ?? '').toLowerCase()) {
      return `cross-site requests are refused (Origin ${origin.slice(0, 100)})`;
    }
  } else if (origin === 'null') {
    return 'requests from an opaque origin are refused';
  }
  return null;
}
