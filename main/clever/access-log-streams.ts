/**
 * The access-log streams of the Clever Cloud client: server-sent events read with node:http(s), one
 * stream per app, resumed by the caller with the last event id.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CleverCallError } from '../../shared/port-errors.ts';
import { type SseEvent, SseParser } from '../../shared/sse.ts';
import { statusError, toCallError } from './call-errors.ts';
import { authorizationHeader } from './credentials.ts';
import { type CallRecord, type CleverHttp, endpointOf } from './http.ts';

export interface AccessLogOptions {
  signal?: AbortSignal;
  lastEventId?: string | null;
  since?: string;
  onEvent: (event: SseEvent) => void;
}

export class AccessLogStreams {
  /** The path that answered last: tried first next time. */
  private accessLogPath: 'accesslogs' | 'logs' = 'accesslogs';

  private readonly http: CleverHttp;

  constructor(http: CleverHttp) {
    this.http = http;
  }

  /**
   * Follow the access-log stream of an app (server-sent events): `onEvent` is called with each event
   * as it is read. Resolves when the server ends the stream or the signal aborts; the caller resumes
   * with `lastEventId`. Rejects with a CleverCallError when the stream cannot be opened or breaks.
   * The path clients use is tried first, then the one of the OpenAPI description (which of the two
   * is canonical is not confirmed).
   */
  async follow(ownerId: string, appId: string, options: AccessLogOptions): Promise<void> {
    const query = new URLSearchParams();
    if (options.since) query.set('since', options.since);
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
    let response: IncomingMessage | null = null;
    let endpoint = '';
    let notFound: CleverCallError | null = null;
    for (const variant of [
      this.accessLogPath,
      this.accessLogPath === 'accesslogs' ? 'logs' : 'accesslogs',
    ] as const) {
      const path = `v4/${variant}/organisations/${encodeURIComponent(ownerId)}/applications/${encodeURIComponent(appId)}/accesslogs`;
      try {
        response = await this.openStream(path, query, headers, options.signal);
        endpoint = endpointOf('get', path);
        this.accessLogPath = variant;
        break;
      } catch (error) {
        if (!(error instanceof CleverCallError && error.kind === 'not-found')) throw error;
        notFound = error;
      }
    }
    // Both paths answered 404: the app (or the owner) is not there.
    if (!response) throw notFound ?? new CleverCallError('invalid-response', 'no access-log stream opened');
    const stream = response;
    const parser = new SseParser();
    stream.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        stream.destroy();
        if (options.signal?.aborted) resolve();
        // A failure to translate the error fails the stream all the same.
        else toCallError(error, endpoint, this.http.credentials).then(reject, reject);
      };
      stream.on('data', (text: string) => {
        try {
          for (const event of parser.push(text)) options.onEvent(event);
        } catch (error) {
          fail(error);
        }
      });
      stream.once('end', resolve);
      stream.once('error', fail);
      // Closed without an end: aborted by the signal, or the connection dropped.
      stream.once('close', () => {
        if (!stream.complete) fail(new Error('the stream was cut'));
      });
    });
  }

  /**
   * Open a server-sent event stream: a GET with node:http(s), not fetch, because a reaper keeps one
   * stream per app open, and Clever Cloud sends a heartbeat on each every 2 s: for a thousand apps,
   * reading them through fetch's web streams took about twice the CPU and 100 MB more memory. No
   * timeout and no retry (the caller watches for silence and reconnects); `signal` closes it.
   */
  private openStream(
    path: string,
    query: URLSearchParams,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<IncomingMessage> {
    const { apiHost, credentials, options } = this.http;
    const endpoint = endpointOf('get', path);
    const started = performance.now();
    const record = (status: number | null, outcome: CallRecord['outcome']) =>
      options.onCall?.({ endpoint, status, outcome, durationMs: performance.now() - started });
    const url = new URL(`${apiHost}/${path}`);
    url.search = query.toString();
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const fail = (error: unknown) => {
        toCallError(error, endpoint, credentials).then((failure) => {
          record(failure.status, failure.kind);
          reject(failure);
        }, reject);
      };
      const req = send(
        url,
        {
          headers: { authorization: authorizationHeader(credentials), ...headers },
          signal,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            record(status, 'ok');
            resolve(res);
            return;
          }
          // An error: its body gives Clever Cloud's error id and message.
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            if (text.length < 65_536) text += chunk;
          });
          res.on('error', fail);
          res.on('end', () => {
            let data: unknown = text;
            try {
              data = JSON.parse(text);
            } catch {
              // not JSON: no id, no message
            }
            const failure = statusError(status, data, endpoint, credentials);
            record(status, failure.kind);
            reject(failure);
          });
        },
      );
      req.on('error', fail);
      req.end();
    });
  }
}
