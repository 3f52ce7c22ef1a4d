/**
 * The built dashboard (vite build output), served with a strict Content Security Policy: scripts,
 * styles and connections from this origin only, no inline script, no framing.
 *
 * Files are kept in memory once read (checked against the file's size and time of change at each
 * request, so a rebuild under a running server is served at once), with their brotli and gzip forms,
 * made at the first request that accepts them. Vite names the files of assets/ after their content:
 * they are cached for a year, immutable; the page itself (index.html) is always revalidated, against
 * its ETag (304 when unchanged).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every answer carries, API and files alike. */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Worth compressing: text. Images (png, ico) and woff2 are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map']);
/** Below this, compression saves less than it costs. */
const MIN_COMPRESS = 1024;
/** Larger files are read each time and sent as they are (the build has none: its largest is a source map). */
const MAX_CACHED_FILE = 16 * 1024 * 1024;
/** The memory the cache may hold (bodies and their compressed forms); past it, it starts again empty. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export type Encoding = 'br' | 'gzip';

/**
 * `body` compressed. 'static': a file, compressed once and kept (brotli quality 5: within 10 % of the
 * best for the bundle, in milliseconds rather than a second). 'dynamic': an API answer, compressed
 * at each request (brotli quality 4, gzip level 6: the 1 MB snapshot of 1,000 apps in 15 to 40 ms,
 * measured on a loaded machine, on zlib's thread pool rather than the event loop).
 */
export function compressBody(body: Buffer, encoding: Encoding, use: 'static' | 'dynamic'): Promise<Buffer> {
  if (encoding === 'gzip') return promisify(gzip)(body, { level: 6 });
  return promisify(brotliCompress)(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: use === 'static' ? 5 : 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

interface CachedFile {
  size: number;
  mtimeMs: number;
  body: Buffer;
  /** Of the body: each encoded form's is this with a suffix. */
  etag: string;
  compressible: boolean;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

const cache = new Map<string, CachedFile>();
let cachedBytes = 0;

/**
 * The encoding to answer with for an Accept-Encoding header: brotli, else gzip, each unless refused
 * (q=0, or `*;q=0` when not named); null for the file as it is.
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q = new Map<string, number>();
  for (const part of text.split(',')) {
    const [raw, ...params] = part.toLowerCase().split(';');
    const name = raw?.trim();
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param);
      if (m) weight = Number(m[1]);
    }
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (name: Encoding) =>
    q.get(name) ?? (name === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

/** Does an If-None-Match header name this ETag (weak comparison, as RFC 9110 asks for GET)? */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

async function load(file: string, info: { size: number; mtimeMs: number }): Promise<CachedFile> {
  const known = cache.get(file);
  if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return known;
  const body = await readFile(file);
  const entry: CachedFile = {
    size: info.size,
    mtimeMs: info.mtimeMs,
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    compressible: COMPRESSIBLE.has(extname(file).toLowerCase()) && body.length >= MIN_COMPRESS,
    encoded: {},
  };
  if (known) {
    cache.delete(file);
    cachedBytes -= known.body.length * 2;
  }
  if (body.length <= MAX_CACHED_FILE) {
    // Counted twice: the body and (at most about as large) its compressed forms.
    if (cachedBytes + body.length * 2 > MAX_CACHE_BYTES) {
      cache.clear();
      cachedBytes = 0;
    }
    cache.set(file, entry);
    cachedBytes += body.length * 2;
  }
  return entry;
}

function encodedForm(entry: CachedFile, encoding: Encoding): Promise<Buffer> {
  let form = entry.encoded[encoding];
  if (!form) {
    form = compressBody(entry.body, encoding, 'static');
    entry.encoded[encoding] = form;
    // A failure is not kept: the next request tries again.
    form.catch(() => {
      if (entry.encoded[encoding] === form) delete entry.encoded[encoding];
    });
  }
  return form;
}

export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  staticDir: string | null,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end('method not allowed\n');
    return;
  }
  if (!staticDir) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('the dashboard is not built: run `npm run build` (npm run serve builds it for you)\n');
    return;
  }
  const root = resolve(staticDir);
  let relative: string;
  try {
    relative = decodeURIComponent(pathname);
  } catch {
    relative = '';
  }
  if (relative === '/' || relative === '') relative = '/index.html';
  const file = resolve(root, `.${relative}`);
  const info = file.startsWith(root + sep) ? await stat(file).catch(() => null) : null;
  if (!info?.isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
    return;
  }
  const entry = await load(file, info);
  const encoding = entry.compressible ? negotiateEncoding(req.headers['accept-encoding']) : null;
  const etag = encoding ? `${entry.etag.slice(0, -1)}-${encoding}"` : entry.etag;
  const headers: Record<string, string | number> = {
    'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    // Vite names assets after their content: they never change. The page itself is always checked.
    'cache-control': relative.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag,
  };
  if (entry.compressible) headers.vary = 'Accept-Encoding';
  if (matchesEtag(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const body = encoding ? await encodedForm(entry, encoding) : entry.body;
  if (encoding) headers['content-encoding'] = encoding;
  headers['content-length'] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
