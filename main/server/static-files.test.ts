/**
 * The dashboard's files over real HTTP (the headless server on loopback, a dashboard folder of its
 * own): caching per kind of file, compression negotiated on Accept-Encoding, ETags and 304, the
 * security headers on every answer, and the admin token in none of them.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECOND } from '../../shared/durations.ts';
import { ManualClock } from '../engine/clocks.ts';
import { MONDAY_9AM } from '../testing/engine-harness.ts';
import { type Headless, startHeadless } from './headless.ts';
import { negotiateEncoding } from './static-files.ts';

const ADMIN = 'admin-token-for-the-static-files-tests';
const IMMUTABLE = 'public, max-age=31536000, immutable';

let server: Headless;
let staticDir: string;
const files = {
  page: `<!doctype html><html><head><title>Clever Reaper</title>${'<link rel="preload" as="script" crossorigin href="./assets/boot-Abc123.js">\n'.repeat(30)}</head></html>`,
  script: `export function row(i){return '<tr data-app="app-' + i + '">' + i + '</tr>';}\n`.repeat(400),
  style: `.row{display:flex;gap:4px}\n.badge{color:red}\n`.repeat(100),
  icon: '<svg xmlns="http://www.w3.org/2000/svg"/>',
  image: Buffer.from([0x89, 0x50, 0x4e, 0x47, ...Array.from({ length: 4000 }, (_, i) => i % 251)]),
};

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'reaper-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), files.page);
  writeFileSync(join(staticDir, 'assets', 'boot-Abc123.js'), files.script);
  writeFileSync(join(staticDir, 'assets', 'index-Def456.css'), files.style);
  writeFileSync(join(staticDir, 'favicon.svg'), files.icon);
  writeFileSync(join(staticDir, 'assets', 'logo-Ghi789.png'), files.image);
  const clock = new ManualClock(MONDAY_9AM);
  server = await startHeadless({
    demo: true,
    scenario: 'e2e',
    host: '127.0.0.1',
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), 'reaper-static-data-')),
    apiUrl: null,
    timeScale: 1,
    staticDir,
    env: { REAPER_ADMIN_TOKEN: ADMIN },
    demoClock: clock,
  });
  await clock.advance(5 * SECOND);
});
afterAll(async () => {
  await server?.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, not fetch: the bytes as sent (fetch would decompress them and add Accept-Encoding). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: Raw): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.body).toString('utf8');
  if (encoding === undefined) return res.body.toString('utf8');
  throw new Error(`unexpected content-encoding ${encoding}`);
}

describe('caching of the dashboard files', () => {
  it('keeps the hashed assets for a year, immutable, and always revalidates the page and the icon', async () => {
    for (const path of ['/', '/index.html', '/favicon.svg']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('no-cache');
    }
    for (const path of ['/assets/boot-Abc123.js', '/assets/index-Def456.css', '/assets/logo-Ghi789.png']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe(IMMUTABLE);
    }
    expect((await get('/')).headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await get('/assets/boot-Abc123.js')).headers['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await get('/assets/index-Def456.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers 304 to a revalidation with the ETag it gave, and the page again once it changed', async () => {
    const first = await get('/index.html', { 'accept-encoding': 'gzip' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('/index.html', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(again.headers['content-security-policy']).toContain("script-src 'self'");
    // Weak comparison, and a list.
    expect(
      (await get('/index.html', { 'accept-encoding': 'gzip', 'if-none-match': `"x", W/${etag}` })).status,
    ).toBe(304);
    // Another representation (not compressed) has another ETag.
    expect((await get('/index.html', { 'if-none-match': etag })).status).toBe(200);

    // A rebuild under the running server: the new page at once, with a new ETag.
    const rebuilt = files.page.replace('Clever Reaper', 'Clever Reaper, rebuilt');
    writeFileSync(join(staticDir, 'index.html'), rebuilt);
    const after = await get('/index.html', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(decoded(after)).toBe(rebuilt);
    expect(after.headers.etag).not.toBe(etag);
    writeFileSync(join(staticDir, 'index.html'), files.page);
  });
});

describe('compression of the dashboard files', () => {
  it('sends brotli or gzip as the client accepts, the same bytes once decompressed', async () => {
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0.5, gzip;q=0.8', 'gzip'],
      ['gzip, br;q=0', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
    ];
    for (const [accept, expected] of cases) {
      for (const [path, text] of [
        ['/assets/boot-Abc123.js', files.script],
        ['/assets/index-Def456.css', files.style],
        ['/index.html', files.page],
      ] as const) {
        const res = await get(path, { 'accept-encoding': accept });
        expect(res.headers['content-encoding'], `${path} ${accept}`).toBe(expected);
        expect(res.headers.vary, path).toBe('Accept-Encoding');
        expect(Number(res.headers['content-length'])).toBe(res.body.length);
        expect(decoded(res)).toBe(text);
        if (expected) expect(res.body.length).toBeLessThan(Buffer.byteLength(text) / 4);
      }
    }
    // Without Accept-Encoding: the file as it is.
    const plain = await get('/assets/boot-Abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(files.script);
  });

  it('leaves images and tiny files as they are', async () => {
    const image = await get('/assets/logo-Ghi789.png', { 'accept-encoding': 'br, gzip' });
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers.vary).toBeUndefined();
    expect(image.body.equals(files.image)).toBe(true);
    const icon = await get('/favicon.svg', { 'accept-encoding': 'br, gzip' });
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.body.toString('utf8')).toBe(files.icon);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get_ = await get('/assets/boot-Abc123.js', { 'accept-encoding': 'br' });
    const head = await get('/assets/boot-Abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-encoding', 'content-length', 'etag', 'cache-control', 'vary']) {
      expect(head.headers[name], name).toBe(get_.headers[name]);
    }
  });

  it('negotiates on the q-values of Accept-Encoding', () => {
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
    expect(negotiateEncoding('deflate')).toBeNull();
    expect(negotiateEncoding('GZIP')).toBe('gzip');
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=1.0, br;q=0.9')).toBe('gzip');
    expect(negotiateEncoding('br ; q=1, gzip')).toBe('br');
    expect(negotiateEncoding('*;q=0')).toBeNull();
    expect(negotiateEncoding('*;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding(['gzip', 'br'])).toBe('br');
  });
});

describe('the dashboard files and the admin token', () => {
  it('are served without it, and it is in none of their answers', async () => {
    for (const path of ['/', '/assets/boot-Abc123.js', '/assets/index-Def456.css', '/favicon.svg']) {
      for (const accept of ['br', 'gzip', 'identity']) {
        const res = await get(path, { 'accept-encoding': accept });
        expect(res.status).toBe(200);
        expect(JSON.stringify(res.headers)).not.toContain(ADMIN);
        expect(decoded(res)).not.toContain(ADMIN);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
      }
    }
  });
});
