/** How the HTTP transport answers: JSON (compressed when large), errors, exports streamed. */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { ERROR_STATUS, type ErrorBody } from '../../shared/api-errors.ts';
import { compressBody, negotiateEncoding } from './static-files.ts';

/** Write an export chunk by chunk, waiting for the client to read (a closed connection stops it). */
export async function streamExport(
  res: ServerResponse,
  file: { filename: string; contentType: string; chunks: AsyncIterable<string> },
): Promise<void> {
  const iterator = file.chunks[Symbol.asyncIterator]();
  // The first chunk is produced before the headers, so a failure there is still an error answer.
  let next = await iterator.next();
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${file.filename}"`,
  });
  while (!next.done) {
    if (res.destroyed) return;
    if (!res.write(next.value)) {
      await Promise.race([once(res, 'drain'), once(res, 'close')]);
    } else {
      // Let the engine and other requests run between two pages.
      await new Promise((resolve) => setImmediate(resolve));
    }
    next = await iterator.next();
  }
  res.end();
}

/**
 * A call's answer, which can be large (the snapshot of 1,000 apps is about 1 MB): compressed with
 * brotli or gzip as the client accepts (`Vary: Accept-Encoding`), unless it is small.
 */
export async function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  acceptEncoding: string | string[] | undefined,
): Promise<void> {
  const text = JSON.stringify(value);
  const encoding = text.length >= MIN_COMPRESSED_JSON ? negotiateEncoding(acceptEncoding) : null;
  res.setHeader('vary', 'Accept-Encoding');
  if (!encoding) return writeJson(res, status, text);
  const body = await compressBody(Buffer.from(text), encoding, 'dynamic');
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-encoding': encoding,
    'content-length': body.length,
  });
  res.end(body);
}

/** Below this, compression saves less than it costs. */
const MIN_COMPRESSED_JSON = 1024;

export function writeJson(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendError(res: ServerResponse, body: ErrorBody): void {
  writeJson(res, ERROR_STATUS[body.error.code], JSON.stringify(body));
}

export function methodNotAllowed(res: ServerResponse, allowed: string[]): void {
  res.setHeader('allow', [...new Set(allowed)].join(', '));
  const message = `use ${[...new Set(allowed)].join(' or ')}`;
  writeJson(res, 405, JSON.stringify({ error: { code: 'invalid-input', message } }));
}
