/**
 * The apps on their own domains, as the simulator serves them (behind Clever Cloud's front). A
 * running app answers:
 *
 * - `GET /events`: a server-sent event stream: a `tick` event every second (`?every=<ms>`, 0 for
 *   none; `?count=<n>` to end after n ticks), and every message posted to `POST /events` (its body,
 *   up to 64 KiB, as the event's data) to every stream of the app open at that moment;
 * - `GET /download?bytes=<n>`: n bytes (at most 1 GiB), streamed with backpressure;
 * - `POST /upload`: the body read to its end and its size answered (`{"received": n}`);
 * - a WebSocket on any path: each message echoed as it came (text or binary);
 * - anything else: a small page (for a browser) or JSON saying which request it was.
 *
 * A stopped app gets Clever Cloud's "not running" answer (`frontStoppedAnswer`, 503 by default),
 * upgrades included; right after a stopped app came up, the front still answers "not routed yet" for
 * `frontWarmupMs` (see notRoutedYet). Every request, upgrades included, is written to the app's access
 * log, with the Host it was sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { escapeHtml } from '../../shared/html.ts';
import type { FrontAnswer, SimApp, SimulatedCloud } from './model.ts';
import { JSON_HEADERS } from './routing.ts';

const MAX_DOWNLOAD = 2 ** 30;
const MAX_MESSAGE = 64 * 1024;

export interface AppFront {
  serve(app: SimApp, req: IncomingMessage, res: ServerResponse, url: URL): void;
  upgrade(app: SimApp, req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

export function appFront(cloud: SimulatedCloud): AppFront {
  const streams = new Map<string, Set<ServerResponse>>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 2 ** 20 });

  const running = (app: SimApp) => cloud.app(app.ownerId, app.id)?.state === 'SHOULD_BE_UP';
  /** What the front answers instead of the app: stopped, or just up and not routed yet (null: the app answers). */
  const frontOf = (app: SimApp): FrontAnswer | null =>
    running(app) ? notRoutedYet(cloud, app) : cloud.options.frontStoppedAnswer;
  const record = (app: SimApp, req: IncomingMessage, path: string, front: FrontAnswer | null) =>
    cloud.recordRequest(app.id, {
      path,
      sourceIp: (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, ''),
      method: req.method ?? 'GET',
      host: (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase() || (app.vhosts[0] ?? ''),
      statusCode: front === 'upgrade-404' ? 404 : front ? 503 : 200,
    });

  const events = (app: SimApp, req: IncomingMessage, res: ServerResponse, url: URL) => {
    const every = Number(url.searchParams.get('every') ?? 1000);
    const count = Number(url.searchParams.get('count') ?? Number.POSITIVE_INFINITY);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.write(': connected\n\n');
    const open = streams.get(app.id) ?? new Set<ServerResponse>();
    streams.set(app.id, open);
    open.add(res);
    let sent = 0;
    const timer =
      Number.isFinite(every) && every > 0
        ? setInterval(() => {
            sent++;
            res.write(`event: tick\ndata: ${JSON.stringify({ n: sent, at: Date.now() })}\n\n`);
            if (sent >= count) res.end();
          }, every)
        : null;
    const closed = () => {
      if (timer) clearInterval(timer);
      open.delete(res);
    };
    res.on('close', closed);
    req.resume();
  };

  const post = (app: SimApp, req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    let tooLong = false;
    req.on('data', (chunk: Buffer) => {
      if (body.length + chunk.length > MAX_MESSAGE) tooLong = true;
      else body += chunk.toString('utf8');
    });
    req.on('end', () => {
      if (tooLong) {
        res.writeHead(413, JSON_HEADERS);
        res.end(JSON.stringify({ error: `a message is at most ${MAX_MESSAGE} bytes` }));
        return;
      }
      const listeners = [...(streams.get(app.id) ?? [])];
      const data = body
        .split(/\r?\n/)
        .map((line) => `data: ${line}\n`)
        .join('');
      for (const s of listeners) s.write(`event: message\n${data}\n`);
      res.writeHead(202, JSON_HEADERS);
      res.end(JSON.stringify({ delivered: listeners.length }));
    });
  };

  const download = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const size = Number(url.searchParams.get('bytes') ?? 1024);
    req.resume();
    if (!Number.isInteger(size) || size < 0 || size > MAX_DOWNLOAD) {
      res.writeHead(400, JSON_HEADERS);
      res.end(JSON.stringify({ error: `bytes must be a whole number from 0 to ${MAX_DOWNLOAD}` }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let left = size;
    const more = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
          return void res.once('drain', more);
      }
      res.end();
    };
    more();
  };

  const upload = (req: IncomingMessage, res: ServerResponse) => {
    let received = 0;
    req.on('data', (c: Buffer) => (received += c.length));
    req.on('end', () => {
      res.writeHead(200, JSON_HEADERS);
      res.end(JSON.stringify({ received }));
    });
  };

  return {
    serve(app, req, res, url) {
      const front = frontOf(app);
      record(app, req, url.pathname + url.search, front);
      if (front === 'upgrade-404') {
        // Clever Cloud's front for a domain it routes to no instance (docs/clever-cloud-facts.md).
        req.resume();
        res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'x-clevercloudupgrade': 'true' });
        res.end('<!doctype html><title>Not Found</title><h1>404 Not Found</h1>');
        return;
      }
      if (front) {
        req.resume();
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`${app.name} is not running`);
        return;
      }
      const route = `${req.method} ${url.pathname}`;
      if (route === 'GET /events') return events(app, req, res, url);
      if (route === 'POST /events') return post(app, req, res);
      if (route === 'GET /download') return download(req, res, url);
      if (route === 'POST /upload') return upload(req, res);
      req.resume();
      if ((req.headers.accept ?? '').includes('text/html')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const name = escapeHtml(app.name);
        res.end(`<!doctype html><title>${name}</title><h1>${name}</h1><p>Served by the app (simulated).</p>`);
      } else {
        res.writeHead(200, JSON_HEADERS);
        res.end(JSON.stringify({ app: app.name, method: req.method, path: url.pathname }));
      }
    },

    upgrade(app, req, socket, head) {
      const front = frontOf(app);
      record(app, req, req.url ?? '/', front);
      if (front) {
        const [status, text, extra] =
          front === 'upgrade-404'
            ? ['404 Not Found', '404 Not Found', 'x-clevercloudupgrade: true\r\n']
            : ['503 Service Unavailable', `${app.name} is not running`, ''];
        socket.end(
          `HTTP/1.1 ${status}\r\ncontent-type: text/plain; charset=utf-8\r\n${extra}content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
        );
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
      });
    },

    close() {
      for (const set of streams.values()) for (const s of set) s.destroy();
      streams.clear();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

/**
 * How the front answers for an app that came up less than `frontWarmupMs` ago (null once it routes
 * it): in `alternate`, a 404 with X-CleverCloudUpgrade and a 503 in turn, one per request.
 */
function notRoutedYet(cloud: SimulatedCloud, app: SimApp): FrontAnswer | null {
  const { frontWarmupMs, frontWarmupAnswer } = cloud.options;
  if (frontWarmupMs <= 0 || app.upSince === undefined) return null;
  if (cloud.clock.now() - app.upSince >= frontWarmupMs) return null;
  if (frontWarmupAnswer !== 'alternate') return frontWarmupAnswer;
  const turn = (warmupTurns.get(app) ?? 0) + 1;
  warmupTurns.set(app, turn);
  return turn % 2 ? 'upgrade-404' : 'unavailable-503';
}

const warmupTurns = new WeakMap<SimApp, number>();
