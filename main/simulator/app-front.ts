/** The apps on their own domains, as the simulator serves them. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../../shared/html.ts';
import type { SimApp, SimulatedCloud } from './model.ts';
import { JSON_HEADERS } from './routing.ts';

/**
 * The apps themselves, behind Clever Cloud's front: a request whose Host is one of an app's domains
 * gets the app's page when it runs, Clever Cloud's "not running" answer when it does not, and is
 * written to the app's access log either way.
 */
export function serveApp(
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
