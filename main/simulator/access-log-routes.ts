/**
 * The simulator's access-log streams (server-sent events): the backlog after the last event id the
 * client saw or since a date, then each new entry as it is recorded, with a heartbeat every 2 s.
 */
import type { ServerResponse } from 'node:http';
import { HEARTBEAT_MS, type SimBehaviour } from './behaviour.ts';
import type { AccessLogEntry, SimApp, SimulatedCloud } from './model.ts';
import type { Ctx, Replies, Route } from './routing.ts';
import { accessLogView } from './views.ts';

export function accessLogRoutes(
  cloud: SimulatedCloud,
  replies: Replies,
  behaviour: SimBehaviour,
  /** The open streams, so that they can all be dropped at once. */
  streams: Set<ServerResponse>,
): Route[] {
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
    replies.count(ctx, 200);
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

  return [
    {
      // Both paths are in use (the clients' and the OpenAPI's); which one is canonical is unconfirmed.
      method: 'GET',
      pattern: /^\/v4\/(?:accesslogs|logs)\/organisations\/([^/]+)\/applications\/([^/]+)\/accesslogs$/,
      handler: async (ctx, [owner, appId]) => {
        const app = replies.appOf(ctx, owner, appId!);
        if (app) streamAccessLogs(ctx, app);
      },
    },
  ];
}
