/**
 * The simulator over HTTP on loopback: the same paths, methods and shapes as the real Clever Cloud API
 * for every call the client makes, with its credentials checked. Error bodies follow the v2 Message
 * schema `{id, message, type}` (OpenAPI); of their ids only 4014 (never deployed, clever-components)
 * and 4002 (an app not yours, a clever-tools issue) are confirmed, the others are the simulator's own.
 * Plus a control API under /_sim/ for tests and demos (outside actions, deployment outcomes, API
 * faults, traffic, call counts). Runnable alone: `npm run simulator -- --port N`.
 *
 * The routes by subject: app-routes.ts (owners, apps, deployments, domains), billing-routes.ts (the
 * price system), access-log-routes.ts, event-socket.ts, control.ts (/_sim/); the apps' own domains in
 * app-front.ts (pages, an event stream, downloads, uploads, a WebSocket echo); the faults in
 * api-faults.ts; the credentials in sim-credentials.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { accessLogRoutes } from './access-log-routes.ts';
import { type Fault, httpText, takeFault } from './api-faults.ts';
import { appFront } from './app-front.ts';
import { appRoutes } from './app-routes.ts';
import { HEARTBEAT_MS, type SimBehaviour } from './behaviour.ts';
import { billingRoutes } from './billing-routes.ts';
import { createControl } from './control.ts';
import { serveEventSocket } from './event-socket.ts';
import { SimError, type SimulatedCloud } from './model.ts';
import { type Ctx, createReplies, normalize, type Route, readBody } from './routing.ts';
import { authorised, DEMO_CREDENTIALS, type SimCredentials } from './sim-credentials.ts';
import { message } from './views.ts';

export type { Fault } from './api-faults.ts';
export type { SimBehaviour } from './behaviour.ts';
export { DEMO_CREDENTIALS, type SimCredentials } from './sim-credentials.ts';

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
  /** Event sockets authorised and following the platform's events now (a test waits on it). */
  eventSockets(): number;
  /** Readings of the platform that no source settles, switchable while running (see SimBehaviour). */
  behaviour: SimBehaviour;
  close(): Promise<void>;
}

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

  const replies = createReplies(cloud, outcomes);
  const { send, fail } = replies;
  const routes: Route[] = [
    ...appRoutes(cloud, replies),
    ...billingRoutes(replies),
    ...accessLogRoutes(cloud, replies, behaviour, streams),
  ];
  const control = createControl(cloud, faults, calls, outcomes);

  const front = appFront(cloud);
  const appOf = (req: IncomingMessage) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    return host ? [...cloud.apps.values()].find((a) => a.vhosts.includes(host)) : undefined;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const ctx: Ctx = { req, res, url, dropAnswer: false };
    const served = appOf(req);
    if (served) return front.serve(served, req, res, url);
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
  const events = serveEventSocket(server, cloud, credentials, behaviour, (req, socket, head) => {
    const served = appOf(req);
    if (served) front.upgrade(served, req, socket, head);
    return served !== undefined;
  });
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
    eventSockets: () => events.ready(),
    close: () =>
      new Promise<void>((resolve) => {
        events.close();
        front.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
