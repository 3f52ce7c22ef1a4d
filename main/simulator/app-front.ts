/** The apps on their own domains, as the simulator serves them. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../../shared/html.ts';
import type { FrontAnswer, SimApp, SimulatedCloud } from './model.ts';
import { JSON_HEADERS } from './routing.ts';

/**
 * The apps themselves, behind Clever Cloud's front: a request whose Host is one of an app's domains
 * gets the app's page when it runs, Clever Cloud's "not running" answer when it does not, and is
 * written to the app's access log either way. Right after a stopped app came up, the front still
 * answers "not routed yet" for `frontWarmupMs` (see frontAnswer).
 */
export function serveApp(
  cloud: SimulatedCloud,
  app: SimApp,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): void {
  const up = cloud.app(app.ownerId, app.id)?.state === 'SHOULD_BE_UP';
  const notRouted = notRoutedYet(cloud, app);
  const front = !up ? cloud.options.frontStoppedAnswer : notRouted;
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  cloud.recordRequest(app.id, {
    path: url.pathname + url.search,
    sourceIp,
    method: req.method ?? 'GET',
    host: (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase() || (app.vhosts[0] ?? ''),
    statusCode: front === 'upgrade-404' ? 404 : front ? 503 : 200,
  });
  req.resume();
  const wantsHtml = (req.headers.accept ?? '').includes('text/html');
  if (front === 'upgrade-404') {
    // Clever Cloud's front for a domain it routes to no instance (docs/clever-cloud-facts.md).
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'x-clevercloudupgrade': 'true' });
    res.end('<!doctype html><title>Not Found</title><h1>404 Not Found</h1>');
  } else if (front) {
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
