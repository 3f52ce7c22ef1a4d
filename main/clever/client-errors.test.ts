/**
 * Clever Cloud's error answers, from a raw loopback HTTP server that quotes the credentials in every
 * form: what the client keeps (status, id, a redacted one-line message) never holds a secret.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CleverCallError } from '../../shared/port-errors.ts';
import { leakedForms, piecesLeft } from '../testing/secret-forms.ts';
import { CleverClient } from './client.ts';
import { CLEVER_TOOLS_CONSUMER, operatorCredentials } from './credentials.ts';

const TOKEN = 'Planted/Token+5bd1f0e2c7a94d3b';
const SECRET = 'Planted/Secret+8e61a2f3b9c04d7e';
const API_TOKEN = 'api-token-Planted-0f9e8d7c6b5a4';
const b64 = (s: string) => Buffer.from(s).toString('base64');

let server: Server | null = null;
afterEach(async () => {
  await new Promise((r) => server?.close(r) ?? r(null));
  server = null;
});

/** A server answering every request with `status` and the next body of `bodies`. */
async function answering(status: number, bodies: string[]): Promise<string> {
  let n = 0;
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(bodies[n++ % bodies.length]);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

async function failure(p: Promise<unknown>): Promise<CleverCallError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CleverCallError);
  return error as CleverCallError;
}

describe('an error answer quoting the credentials', () => {
  it('keeps the status, the id and a message with no form of any secret in it', async () => {
    const forms = leakedForms(TOKEN, SECRET, CLEVER_TOOLS_CONSUMER.secret);
    const bodies = forms.map((form) =>
      JSON.stringify({ id: 2001, message: `invalid token: ${form}`, type: 'error' }),
    );
    const url = await answering(401, bodies);
    const credentials = operatorCredentials({ kind: 'oauth1', token: TOKEN, secret: SECRET });
    const client = new CleverClient({ credentials, apiHost: url, retryLimit: 0 });
    for (const form of forms) {
      const error = await failure(client.listApplications('orga_acme'));
      expect(error.status).toBe(401);
      expect(error.cleverId).toBe(2001);
      expect(error.kind).toBe('unauthorized');
      expect(error.message, form).toMatch(
        /^Clever Cloud answered 401 \(error 2001\) to GET \/v2\/organisations\/:XXX\/applications: invalid token: /,
      );
      expect(error.message, form).toContain('[redacted]');
      expect(piecesLeft(error.message, forms), form).toEqual([]);
    }
  });

  it('drops an id that is not a plain number or word, and cuts a long message to one line', async () => {
    const url = await answering(400, [
      JSON.stringify({ id: `x-${API_TOKEN}`, message: `line\n${'long '.repeat(200)}` }),
      JSON.stringify({ code: 'ERR_QUOTA', error: API_TOKEN.toUpperCase() }),
    ]);
    const credentials = operatorCredentials({ kind: 'api-token', token: API_TOKEN });
    const client = new CleverClient({ credentials, apiHost: url, retryLimit: 0 });
    const first = await failure(client.listApplications('orga_acme'));
    expect(first.cleverId).toBeNull();
    expect(first.message).not.toContain('\n');
    expect(first.message.length).toBeLessThan(500);
    expect(first.message).not.toContain(API_TOKEN.slice(0, 8));
    const second = await failure(client.listApplications('orga_acme'));
    expect(second.cleverId).toBe('ERR_QUOTA');
    expect(second.message).toMatch(/\(error ERR_QUOTA\) .*: \[redacted\]$/);
  });

  it('of the access-log stream (node:http, not fetch) is cleaned the same way', async () => {
    const url = await answering(403, [
      JSON.stringify({ id: 3001, message: `denied for ${b64(`${TOKEN}:${SECRET}`)}` }),
    ]);
    const credentials = operatorCredentials({ kind: 'oauth1', token: TOKEN, secret: SECRET });
    const client = new CleverClient({ credentials, apiHost: url, retryLimit: 0 });
    const error = await failure(client.accessLogs('orga_acme', 'app_x', { onEvent: () => {} }));
    expect(error.status).toBe(403);
    expect(error.message).toContain('denied for [redacted]');
    expect(piecesLeft(error.message, leakedForms(TOKEN, SECRET, CLEVER_TOOLS_CONSUMER.secret))).toEqual([]);
  });
});
