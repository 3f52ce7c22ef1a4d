/**
 * What the simulator's routes share: a call's context, a route, the answers (JSON, with Clever Cloud's
 * error bodies, each counted by endpoint and status), and the owner or app a path names.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimApp, SimulatedCloud } from './model.ts';
import { message } from './views.ts';

export interface Route {
  method: string;
  pattern: RegExp;
  handler: (ctx: Ctx, params: string[]) => Promise<void>;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Set by a `drop-after` fault: the answer is not sent. */
  dropAnswer: boolean;
}

export const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};

/** v2 routes exist under /v2/organisations/{ownerId}/... and, for the personal space, /v2/self/... */
export const OWNER = '(?:organisations/([^/]+)|self)';

/** The answers of the API routes, and the owner and app a path names (answering 404 when absent). */
export interface Replies {
  send(ctx: Ctx, status: number, body: unknown, headers?: Record<string, string>): void;
  /** A v2 error body: Clever Cloud's message `{id, message, type}`. */
  fail(ctx: Ctx, status: number, id: number, text: string): void;
  /** A v4 error body, `{error, code}` (clever-client.js esm/streams/clever-cloud-sse.ts reads these). */
  v4Fail(ctx: Ctx, status: number, text: string): void;
  /** Count an answer sent another way (a stream). */
  count(ctx: Ctx, status: number): void;
  /** The owner a path names: /v2/self/... is the personal space. */
  ownerOf(ctx: Ctx, segment: string | undefined): string | null;
  appOf(ctx: Ctx, ownerSegment: string | undefined, appSegment: string): SimApp | null;
}

export function createReplies(cloud: SimulatedCloud, outcomes: Map<string, number>): Replies {
  const count = (ctx: Ctx, status: number) => {
    const key = `${ctx.req.method} ${normalize(ctx.url.pathname)} ${status}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  };
  const send = (ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (ctx.dropAnswer) {
      ctx.req.socket.destroy();
      return;
    }
    count(ctx, status);
    ctx.res.writeHead(status, { ...JSON_HEADERS, ...headers });
    ctx.res.end(JSON.stringify(body));
  };
  const fail = (ctx: Ctx, status: number, id: number, text: string) =>
    send(ctx, status, message(id, text, 'error'));
  const v4Fail = (ctx: Ctx, status: number, text: string) =>
    send(ctx, status, { error: text, code: `clever.simulator.${status}` });
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
  return { send, fail, v4Fail, count, ownerOf, appOf };
}

/** "GET /v2/organisations/orga_x/applications/app_y" -> "/v2/organisations/:XXX/applications/:XXX". */
export function normalize(path: string): string {
  return path.replace(/\/(organisations|applications|deployments)\/[^/]+/g, '/$1/:XXX');
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (!chunks.length) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return {};
  }
}
