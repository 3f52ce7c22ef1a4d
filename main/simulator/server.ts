/**
 * The simulator over HTTP on loopback: the same paths, methods and shapes as the real Clever Cloud API
 * for every call the client makes, with its credentials checked. Error bodies follow the v2 Message
 * schema `{id, message, type}` (OpenAPI); of their ids only 4014 (never deployed, clever-components)
 * and 4002 (an app not yours, a clever-tools issue) are confirmed, the others are the simulator's own.
 * Plus a control API under /_sim/ for tests and demos (outside actions, deployment outcomes, API
 * faults, traffic, call counts). Runnable alone: `npm run simulator -- --port N`.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import type { CleverState } from '../../shared/domain.ts';
import { escapeHtml } from '../../shared/html.ts';
import { describeError } from '../../shared/log.ts';
import type { AccessLogEntry, DeploymentAction, DeploymentOutcome, SimApp, SimulatedCloud } from './model.ts';
import { SimError } from './model.ts';
import { priceSystemView } from './price-system.ts';
import {
  accessLogView,
  applicationView,
  deploymentView,
  instanceView,
  message,
  organisationView,
  userView,
} from './views.ts';

/** Credentials the simulator accepts, as a real account would have them. */
export interface SimCredentials {
  /** OAuth1: the consumer pair and the user's token and secret. */
  oauth?: { consumerKey: string; consumerSecret: string; token: string; secret: string };
  /** API tokens, sent as Bearer (to the api-bridge host on the real platform). */
  apiTokens?: string[];
}

export const DEMO_CREDENTIALS: Required<SimCredentials> = {
  oauth: {
    consumerKey: 'sim-consumer-key',
    consumerSecret: 'sim-consumer-secret',
    token: 'sim-user-token',
    secret: 'sim-user-secret',
  },
  apiTokens: ['sim-api-token'],
};

/** An API fault, applied to the next `count` matching calls (Infinity for an outage). */
export type Fault = (
  | { kind: 'status'; status: number; retryAfterSec?: number; message?: string }
  | { kind: 'delay'; ms: number }
  /** The connection is dropped before the call is carried out. */
  | { kind: 'drop' }
  /** The call is carried out, then the connection is dropped: its answer is lost. */
  | { kind: 'drop-after' }
) & {
  count: number;
  /** Only calls whose endpoint ("GET /v2/organisations/:XXX/...") contains this. */
  match?: string;
  /** Only calls whose path names this id (an app, or an owner: its list and its apps). */
  id?: string;
  /** How many calls it hit (set by the simulator). */
  hits?: number;
};

export interface SimulatorServer {
  url: string;
  server: Server;
  cloud: SimulatedCloud;
  /** Calls per endpoint ("GET /v2/organisations/:XXX/applications"), and per endpoint and status. */
  calls: Map<string, number>;
  outcomes: Map<string, number>;
  faults: Fault[];
  totalCalls(): number;
  resetCalls(): void;
  /** Close every open access-log stream (a dropped connection, for resume tests). */
  dropStreams(): void;
  /** Readings of the platform that no source settles, switchable while running (see SimBehaviour). */
  behaviour: SimBehaviour;
  close(): Promise<void>;
}

/**
 * Behaviours of the real platform that are unconfirmed, so tests can cover each reading.
 */
export interface SimBehaviour {
  /**
   * Whether an access-log stream resumes after the id in Last-Event-ID. clever-client.js sends it
   * (src/lib/stream/cc-stream.ts), but whether the server honours it is unconfirmed: when false, the
   * header is ignored and only `since` chooses the backlog.
   */
  honourLastEventId: boolean;
  /**
   * Whether access-log events carry ids (the SSE `id:` line, and `id`/`requestId` in the data).
   * clever-client.js resumes by the SSE id; entries without any id are a reading to tolerate.
   */
  accessLogIds: boolean;
  /** The event socket's heartbeat: its announced delay, and whether pings are sent at all. */
  socketPingDelayMs: number;
  socketPings: boolean;
}

interface Route {
  method: string;
  pattern: RegExp;
  handler: (ctx: Ctx, params: string[]) => Promise<void> | void;
}

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Set by a `drop-after` fault: the answer is not sent. */
  dropAnswer: boolean;
}

const HEARTBEAT_MS = 2000;
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export async function startSimulatorServer(options: {
  cloud: SimulatedCloud;
  credentials?: SimCredentials;
  port?: number;
  host?: string;
}): Promise<SimulatorServer> {
  const { cloud } = options;
  const credentials = options.credentials ?? DEMO_CREDENTIALS;
  const calls = new Map<string, number>();
  const outcomes = new Map<string, number>();
  const faults: Fault[] = [];
  const streams = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const behaviour: SimBehaviour = {
    honourLastEventId: true,
    accessLogIds: true,
    socketPingDelayMs: HEARTBEAT_MS,
    socketPings: true,
  };

  const send = (ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (ctx.dropAnswer) {
      ctx.req.socket.destroy();
      return;
    }
    const key = `${ctx.req.method} ${normalize(ctx.url.pathname)} ${status}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    ctx.res.writeHead(status, { ...JSON_HEADERS, ...headers });
    ctx.res.end(JSON.stringify(body));
  };
  const fail = (ctx: Ctx, status: number, id: number, text: string) =>
    send(ctx, status, message(id, text, 'error'));
  /** A v4 error body, `{error, code}` (clever-client.js esm/streams/clever-cloud-sse.ts reads these). */
  const v4Fail = (ctx: Ctx, status: number, text: string) =>
    send(ctx, status, { error: text, code: `clever.simulator.${status}` });

  /** The owner a path names: /v2/self/... is the personal space. */
  const ownerOf = (ctx: Ctx, segment: string | undefined): string | null => {
    const id = segment === undefined ? cloud.user.id : decodeURIComponent(segment);
    if (!cloud.owner(id)) {
      fail(ctx, 404, 4004, 'Organisation not found');
      return null;
    }
    return id;
  };
  const appOf = (ctx: Ctx, ownerSegment: string | undefined, appSegment: string): SimApp | null => {
    const ownerId = ownerOf(ctx, ownerSegment);
    if (!ownerId) return null;
    const app = cloud.app(ownerId, decodeURIComponent(appSegment));
    if (!app) {
      fail(ctx, 404, 4002, "The provided application id doesn't belong to you");
      return null;
    }
    return app;
  };

  // v2 routes exist under /v2/organisations/{ownerId}/... and, for the personal space, /v2/self/...
  const OWNER = '(?:organisations/([^/]+)|self)';
  const routes: Route[] = [
    { method: 'GET', pattern: /^\/v2\/self$/, handler: (ctx) => send(ctx, 200, userView(cloud)) },
    {
      method: 'GET',
      pattern: /^\/v2\/organisations$/,
      // Like the real list, it holds the personal space too (clients filter on the orga_ prefix).
      handler: (ctx) => send(ctx, 200, [cloud.user, ...cloud.organisations].map(organisationView)),
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications$`),
      handler: (ctx, [owner]) => {
        const ownerId = ownerOf(ctx, owner);
        if (ownerId) send(ctx, 200, cloud.appsOf(ownerId).map(applicationView));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)$`),
      handler: (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (app) send(ctx, 200, applicationView(app));
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/instances$`),
      handler: (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (!app) return;
        const { deploymentId } = cloud.start(app.ownerId, app.id);
        send(ctx, 200, { ...message(0, 'The application has been deployed', 'success'), deploymentId });
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/instances$`),
      handler: (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (app)
          send(
            ctx,
            200,
            cloud.instances(app).map((i) => instanceView(app, i)),
          );
      },
    },
    {
      method: 'DELETE',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/instances$`),
      handler: (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (!app) return;
        cloud.stop(app.ownerId, app.id);
        send(ctx, 200, message(0, 'The application has been stopped', 'success'));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/deployments$`),
      handler: (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (!app) return;
        const limit = Number(ctx.url.searchParams.get('limit') ?? '1000');
        const offset = Number(ctx.url.searchParams.get('offset') ?? '0');
        const list = cloud.deployments(app).slice(offset, offset + (Number.isFinite(limit) ? limit : 1000));
        send(ctx, 200, list.map(deploymentView));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/deployments/([^/]+)$`),
      handler: (ctx, [owner, appId, depId]) => {
        const app = appOf(ctx, owner, appId!);
        if (!app) return;
        const d = cloud.deployments(app).find((x) => x.uuid === decodeURIComponent(depId!));
        if (d) send(ctx, 200, deploymentView(d));
        else fail(ctx, 404, 4004, 'Deployment not found');
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^/v2/${OWNER}/applications/([^/]+)/vhosts$`),
      handler: (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (app)
          send(
            ctx,
            200,
            app.vhosts.map((fqdn) => ({ fqdn })),
          );
      },
    },
    {
      // The console's price system: zone_id and currency are both required (OpenAPI getPriceSystem).
      method: 'GET',
      pattern: /^\/v4\/billing\/price-system$/,
      handler: (ctx) => {
        const zone = ctx.url.searchParams.get('zone_id');
        const currency = ctx.url.searchParams.get('currency');
        if (!zone || !currency) return v4Fail(ctx, 400, 'zone_id and currency are required');
        const view = priceSystemView(zone, currency, null);
        if (view) send(ctx, 200, view);
        else v4Fail(ctx, 404, `no price system for zone ${zone} in ${currency}`);
      },
    },
    {
      // An owner's price system (clever-client.js GetPriceSystemCommand): zone_id, in its currency.
      method: 'GET',
      pattern: /^\/v4\/billing\/organisations\/([^/]+)\/price-system$/,
      handler: (ctx, [owner]) => {
        const ownerId = ownerOf(ctx, owner);
        if (!ownerId) return;
        const zone = ctx.url.searchParams.get('zone_id') ?? 'par';
        const view = priceSystemView(zone, 'EUR', ownerId);
        if (view) send(ctx, 200, view);
        else v4Fail(ctx, 404, `no price system for zone ${zone}`);
      },
    },
    {
      // Both paths are in use (the clients' and the OpenAPI's); which one is canonical is unconfirmed.
      method: 'GET',
      pattern: /^\/v4\/(?:accesslogs|logs)\/organisations\/([^/]+)\/applications\/([^/]+)\/accesslogs$/,
      handler: (ctx, [owner, appId]) => {
        const app = appOf(ctx, owner, appId!);
        if (app) streamAccessLogs(ctx, app);
      },
    },
  ];

  const streamAccessLogs = (ctx: Ctx, app: SimApp) => {
    const { req, res, url } = ctx;
    const lastEventId = behaviour.honourLastEventId
      ? Number(req.headers['last-event-id'] ?? url.searchParams.get('lastEventId') ?? Number.NaN)
      : Number.NaN;
    const since = url.searchParams.get('since');
    const until = url.searchParams.get('until');
    const limit = Number(url.searchParams.get('limit') ?? Number.POSITIVE_INFINITY);
    const sinceMs = since ? Date.parse(since) : Number.NaN;
    const untilMs = until ? Date.parse(until) : Number.NaN;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const key = `GET ${normalize(url.pathname)} 200`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    streams.add(res);
    let sent = 0;
    let ended = false;
    const end = (endedBy: string) => {
      if (ended) return;
      ended = true;
      res.write(`event: END_OF_STREAM\ndata: ${JSON.stringify({ endedBy })}\n\n`);
      res.end();
    };
    const emit = (e: AccessLogEntry) => {
      if (ended) return;
      if (Number.isFinite(untilMs) && e.date > untilMs) return end('UNTIL_REACHED');
      if (behaviour.accessLogIds) {
        res.write(`id: ${e.seq}\nevent: ACCESS_LOG\ndata: ${JSON.stringify(accessLogView(e))}\n\n`);
      } else {
        const { id: _id, requestId: _requestId, ...anonymous } = accessLogView(e);
        res.write(`event: ACCESS_LOG\ndata: ${JSON.stringify(anonymous)}\n\n`);
      }
      if (++sent >= limit) end('LIMIT_REACHED');
    };
    // The backlog: after the last event the client saw, or since a date.
    for (const e of app.accessLog) {
      if (Number.isFinite(lastEventId) ? e.seq > lastEventId : Number.isFinite(sinceMs) && e.date >= sinceMs)
        emit(e);
    }
    const off = cloud.onAccessLog((e) => {
      if (e.appId === app.id) emit(e);
    });
    const heartbeat = setInterval(() => {
      if (Number.isFinite(untilMs) && cloud.clock.now() > untilMs) end('UNTIL_REACHED');
      else if (!ended) res.write('event: HEARTBEAT\ndata: {}\n\n');
    }, HEARTBEAT_MS);
    const cleanup = () => {
      clearInterval(heartbeat);
      off();
      streams.delete(res);
    };
    res.on('close', cleanup);
  };

  const control = createControl(cloud, faults, calls, outcomes);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const ctx: Ctx = { req, res, url, dropAnswer: false };
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const served = host ? [...cloud.apps.values()].find((a) => a.vhosts.includes(host)) : undefined;
    if (served) return serveApp(cloud, served, req, res, url);
    if (url.pathname.startsWith('/_sim/')) return control(ctx, await readBody(req));

    const endpoint = `${req.method} ${normalize(url.pathname)}`;
    calls.set(endpoint, (calls.get(endpoint) ?? 0) + 1);

    const fault = takeFault(faults, endpoint, url.pathname);
    if (fault?.kind === 'drop') return req.socket.destroy();
    if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = fault.retryAfterSec
        ? { 'retry-after': String(fault.retryAfterSec) }
        : {};
      const text = fault.message ?? httpText(fault.status);
      return send(ctx, fault.status, message(fault.status, text, 'error'), headers);
    }
    if (fault?.kind === 'drop-after') ctx.dropAnswer = true;

    if (!authorised(req.headers.authorization ?? '', credentials)) {
      return fail(ctx, 401, 401, 'Not authorized: missing or invalid credentials');
    }

    for (const route of routes) {
      if (route.method !== req.method) continue;
      const m = route.pattern.exec(url.pathname);
      if (!m) continue;
      try {
        await route.handler(ctx, m.slice(1));
      } catch (error) {
        if (error instanceof SimError) fail(ctx, error.status, error.id, error.message);
        else fail(ctx, 500, 500, 'Internal error');
      }
      return;
    }
    fail(ctx, 404, 404, `No route for ${req.method} ${url.pathname}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const events = serveEventSocket(server, cloud, credentials, behaviour);
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as AddressInfo;

  return {
    url: `http://${address.address}:${address.port}`,
    server,
    cloud,
    calls,
    outcomes,
    faults,
    totalCalls: () => [...calls.values()].reduce((a, b) => a + b, 0),
    resetCalls: () => {
      calls.clear();
      outcomes.clear();
    },
    behaviour,
    dropStreams: () => {
      for (const s of streams) s.socket?.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        events.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The apps themselves, behind Clever Cloud's front: a request whose Host is one of an app's domains
 * gets the app's page when it runs, Clever Cloud's "not running" answer when it does not, and is
 * written to the app's access log either way.
 */
function serveApp(
  cloud: SimulatedCloud,
  app: SimApp,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): void {
  const running = cloud.app(app.ownerId, app.id)?.state === 'SHOULD_BE_UP';
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  cloud.recordRequest(app.id, {
    path: url.pathname + url.search,
    sourceIp,
    method: req.method ?? 'GET',
    host: app.vhosts[0] ?? '',
    statusCode: running ? 200 : 503,
  });
  req.resume();
  const wantsHtml = (req.headers.accept ?? '').includes('text/html');
  if (!running) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`${app.name} is not running`);
  } else if (wantsHtml) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const name = escapeHtml(app.name);
    res.end(`<!doctype html><title>${name}</title><h1>${name}</h1><p>Served by the app (simulated).</p>`);
  } else {
    res.writeHead(200, JSON_HEADERS);
    res.end(JSON.stringify({ app: app.name, method: req.method, path: url.pathname }));
  }
}

/**
 * The event socket (wss://…/v2/events/event-socket): the client opens it, sends
 * {"message_type":"oauth","authorization":"<OAuth header>"}, gets {"message_type":"socket_ready"},
 * then heartbeats to answer and the platform's events ({event, date, data: "<JSON string>"}). A bad
 * authorization gets {type:"error", id:2001} and the socket closes.
 */
function serveEventSocket(
  server: Server,
  cloud: SimulatedCloud,
  credentials: SimCredentials,
  behaviour: SimBehaviour,
) {
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://simulator.invalid').pathname !== '/v2/events/event-socket') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      let off: (() => void) | null = null;
      let heartbeat: ReturnType<typeof setInterval> | null = null;
      ws.once('message', (raw) => {
        let auth: { message_type?: string; authorization?: string } = {};
        try {
          auth = JSON.parse(String(raw));
        } catch {
          // not JSON: refused below
        }
        if (auth.message_type !== 'oauth' || !authorised(auth.authorization ?? '', credentials)) {
          ws.send(JSON.stringify({ type: 'error', id: 2001, message: 'authentication failed' }));
          ws.close();
          return;
        }
        ws.send(JSON.stringify({ message_type: 'socket_ready' }));
        off = cloud.onEvent((e) => {
          const message = {
            event: e.event,
            date: new Date(e.date).toISOString(),
            data: JSON.stringify(e.data),
          };
          ws.send(JSON.stringify(message));
        });
        // Pings every announced delay (read when the socket opens); none while pings are switched off.
        const delay = behaviour.socketPingDelayMs;
        heartbeat = setInterval(() => {
          if (!behaviour.socketPings) return;
          ws.send(JSON.stringify({ type: 'heartbeat', heartbeat_msg: 'ping', heartbeat_delay_ms: delay }));
        }, delay);
      });
      ws.on('close', () => {
        off?.();
        if (heartbeat) clearInterval(heartbeat);
      });
    });
  });
  return {
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

/** "GET /v2/organisations/orga_x/applications/app_y" -> "/v2/organisations/:XXX/applications/:XXX". */
export function normalize(path: string): string {
  return path.replace(/\/(organisations|applications|deployments)\/[^/]+/g, '/$1/:XXX');
}

function takeFault(faults: Fault[], endpoint: string, path: string): Fault | undefined {
  const index = faults.findIndex(
    (f) => f.count > 0 && (!f.match || endpoint.includes(f.match)) && (!f.id || path.includes(`/${f.id}`)),
  );
  if (index < 0) return undefined;
  const fault = faults[index]!;
  fault.count--;
  fault.hits = (fault.hits ?? 0) + 1;
  if (fault.count <= 0) faults.splice(index, 1);
  return fault;
}

function httpText(status: number): string {
  if (status === 429) return 'Too many requests';
  if (status >= 500) return 'The service is temporarily unavailable';
  return 'Request failed';
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** OAuth1 PLAINTEXT (signature = consumer secret & token secret, URL-encoded) or Bearer. */
export function authorised(header: string, credentials: SimCredentials): boolean {
  if (header.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    return (credentials.apiTokens ?? []).some((t) => same(t, token));
  }
  if (!header.startsWith('OAuth ') || !credentials.oauth) return false;
  const params = new Map<string, string>();
  for (const m of header.slice(6).matchAll(/([a-z_]+)="([^"]*)"/g)) params.set(m[1]!, m[2]!);
  const o = credentials.oauth;
  const signature = decodeURIComponent(params.get('oauth_signature') ?? '');
  return (
    same(params.get('oauth_consumer_key') ?? '', o.consumerKey) &&
    same(params.get('oauth_token') ?? '', o.token) &&
    same(signature, `${o.consumerSecret}&${o.secret}`)
  );
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (!chunks.length) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return {};
  }
}

/** The control API: what tests and the demo do to the simulated platform. Loopback only, no auth. */
function createControl(
  cloud: SimulatedCloud,
  faults: Fault[],
  calls: Map<string, number>,
  outcomes: Map<string, number>,
) {
  const json = (ctx: Ctx, status: number, body: unknown) => {
    ctx.res.writeHead(status, JSON_HEADERS);
    ctx.res.end(JSON.stringify(body));
  };
  const summary = (app: SimApp) => ({
    id: app.id,
    ownerId: app.ownerId,
    name: app.name,
    state: app.state,
    lastDeploy: app.lastDeploy,
    deployments: cloud.deployments(app).map(deploymentView),
  });
  return (ctx: Ctx, body: unknown) => {
    const b = (body ?? {}) as Record<string, unknown>;
    const path = ctx.url.pathname;
    const method = ctx.req.method;
    try {
      if (method === 'GET' && path === '/_sim/state') {
        return json(ctx, 200, {
          now: cloud.clock.now(),
          user: cloud.user,
          organisations: cloud.organisations,
          apps: [...cloud.apps.values()].map((a) => summary(cloud.app(a.ownerId, a.id)!)),
        });
      }
      if (method === 'GET' && path === '/_sim/calls') {
        return json(ctx, 200, { calls: Object.fromEntries(calls), outcomes: Object.fromEntries(outcomes) });
      }
      if (method === 'POST' && path === '/_sim/organisations') {
        return json(ctx, 201, cloud.addOrganisation(String(b.name ?? 'Organisation')));
      }
      if (method === 'POST' && path === '/_sim/apps') {
        const app = cloud.addApp(String(b.ownerId ?? cloud.user.id), String(b.name ?? 'app'), {
          ...(b.state ? { state: String(b.state) as CleverState } : {}),
          ...(b.neverDeployed ? { neverDeployed: true } : {}),
          ...(typeof b.deployDurationMs === 'number' ? { deployDurationMs: b.deployDurationMs } : {}),
        });
        return json(ctx, 201, summary(app));
      }
      if (method === 'POST' && path === '/_sim/faults') {
        faults.push({ count: 1, ...(b as object) } as Fault);
        return json(ctx, 201, { faults });
      }
      if (method === 'DELETE' && path === '/_sim/faults') {
        faults.splice(0);
        return json(ctx, 200, { faults });
      }
      const gone = /^\/_sim\/apps\/([^/]+)$/.exec(path);
      if (method === 'DELETE' && gone) {
        const app = cloud.deleteApp(decodeURIComponent(gone[1]!));
        return json(ctx, 200, { deleted: app.id, ownerId: app.ownerId, name: app.name });
      }
      const m = /^\/_sim\/apps\/([^/]+)\/([a-z-]+)$/.exec(path);
      if (method === 'POST' && m) {
        const appId = decodeURIComponent(m[1]!);
        switch (m[2]) {
          case 'outcomes':
            cloud.injectOutcomes(appId, ...((b.outcomes as DeploymentOutcome[]) ?? []));
            break;
          case 'console-stop':
            cloud.consoleStop(appId);
            break;
          case 'console-start':
            cloud.consoleStart(appId);
            break;
          case 'git-push':
            cloud.gitPush(appId);
            break;
          case 'state':
            cloud.setState(appId, String(b.state) as CleverState);
            break;
          case 'activity':
            // An autoscaling or maintenance entry: {action: 'UPSCALE' | ... | null, state: 'FAIL' | ...}.
            cloud.addActivity(
              appId,
              b.action === null ? null : (String(b.action ?? 'UPSCALE') as DeploymentAction),
              String(b.state ?? 'OK'),
            );
            break;
          case 'stop-never-completes':
            cloud.setStopNeverCompletes(appId, b.never !== false);
            break;
          case 'requests': {
            const count = Math.min(Number(b.count ?? 1), 10_000);
            for (let i = 0; i < count; i++) {
              cloud.recordRequest(appId, {
                ...(typeof b.path === 'string' ? { path: b.path } : {}),
                ...(typeof b.sourceIp === 'string' ? { sourceIp: b.sourceIp } : {}),
                ...(b.noHttp === true ? { noHttp: true } : {}),
              });
            }
            break;
          }
          default:
            return json(ctx, 404, { error: `unknown action ${m[2]}` });
        }
        const app = cloud.apps.get(appId)!;
        return json(ctx, 200, summary(cloud.app(app.ownerId, appId)!));
      }
      return json(ctx, 404, { error: `no control route ${method} ${path}` });
    } catch (error) {
      return json(ctx, 400, { error: describeError(error) });
    }
  };
}
