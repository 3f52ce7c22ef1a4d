/**
 * The HTTP core of the Clever Cloud client, on ky: the base URL and the authorization, a timeout per
 * attempt, the retries, the validation of every answer against its schema, and one record per call.
 *
 * - Retries with exponential backoff and full jitter on network errors, timeouts, 5xx and 429
 *   (honouring Retry-After), never on other 4xx. Reads are retried; a start or a stop is retried only
 *   when it surely did not reach Clever Cloud (429, connection refused), because its answer could be
 *   lost after it was carried out: the engine checks the deployments before sending it again.
 * - Any failure becomes a CleverCallError without a credential in it (call-errors.ts).
 */
import ky, { HTTPError, isNetworkError, type KyInstance, type Options } from 'ky';
import type { z } from 'zod';
import { CleverCallError, type CleverErrorKind } from '../../shared/port-errors.ts';
import { notSent, toCallError } from './call-errors.ts';
import { authorizationHeader, type Credentials } from './credentials.ts';

export interface CallRecord {
  /** "GET /v2/organisations/:XXX/applications" */
  endpoint: string;
  status: number | null;
  outcome: 'ok' | CleverErrorKind;
  durationMs: number;
}

export interface ClientOptions {
  credentials: Credentials;
  /**
   * Another base URL than the credentials' (tests pointing a client at a simulator). The shells
   * resolve the hosts once, into the credentials (credentials.ts, resolveEndpoints).
   */
  apiHost?: string | undefined;
  /** Per attempt. */
  timeoutMs?: number;
  retryLimit?: number;
  /** Upper bound of a backoff delay, and of a Retry-After honoured. */
  backoffLimitMs?: number;
  /** The calls' fetch (tests); the access-log streams are read with node:http(s) instead. */
  fetch?: typeof fetch;
  onCall?: (call: CallRecord) => void;
}

const RETRY_STATUS = [408, 429, 500, 502, 503, 504];

export class CleverHttp {
  readonly apiHost: string;
  readonly credentials: Credentials;
  readonly options: ClientOptions;
  private readonly http: KyInstance;

  constructor(options: ClientOptions) {
    this.options = options;
    this.credentials = options.credentials;
    this.apiHost = (options.apiHost ?? options.credentials.apiHost).replace(/\/+$/, '');
    const backoffLimit = options.backoffLimitMs ?? 10_000;
    this.http = ky.create({
      baseUrl: `${this.apiHost}/`,
      timeout: options.timeoutMs ?? 15_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      headers: { authorization: authorizationHeader(this.credentials), accept: 'application/json' },
      retry: {
        limit: options.retryLimit ?? 4,
        methods: ['get'],
        statusCodes: RETRY_STATUS,
        afterStatusCodes: [429, 503],
        maxRetryAfter: Math.max(backoffLimit, 30_000),
        backoffLimit,
        delay: (attempt) => 500 * 2 ** (attempt - 1),
        jitter: true,
        retryOnTimeout: true,
      },
    });
  }

  /** A read, retried; `ifNotFound` (when given) is the result of a 404. */
  async get<S extends z.ZodType, F = never>(
    path: string,
    schema: S,
    options: { signal?: AbortSignal; searchParams?: Record<string, string> },
    ifNotFound?: F,
  ): Promise<z.output<S> | F> {
    try {
      const response = await this.request('get', path, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.searchParams ? { searchParams: options.searchParams } : {}),
      });
      return this.parse(path, 'get', schema, await response.text());
    } catch (error) {
      if (ifNotFound !== undefined && error instanceof CleverCallError && error.kind === 'not-found') {
        return ifNotFound;
      }
      throw error;
    }
  }

  /** A write, retried only when it surely did not reach Clever Cloud. */
  async send<S extends z.ZodType>(
    method: 'post' | 'delete',
    path: string,
    schema: S | null,
    options: { signal?: AbortSignal },
  ): Promise<z.output<S> | null> {
    const response = await this.request(method, path, {
      ...(options.signal ? { signal: options.signal } : {}),
      retry: {
        limit: this.options.retryLimit ?? 4,
        methods: [method],
        statusCodes: [429],
        afterStatusCodes: [429],
        maxRetryAfter: 30_000,
        backoffLimit: this.options.backoffLimitMs ?? 10_000,
        jitter: true,
        shouldRetry: ({ error }) => {
          if (error instanceof HTTPError) return error.response.status === 429;
          return isNetworkError(error) && notSent(error);
        },
      },
    });
    if (!schema) return null;
    return this.parse(path, method, schema, await response.text());
  }

  private parse<S extends z.ZodType>(path: string, method: string, schema: S, text: string): z.output<S> {
    let json: unknown = null;
    if (text.trim()) {
      try {
        json = JSON.parse(text);
      } catch {
        throw new CleverCallError(
          'invalid-response',
          `Clever Cloud answered ${endpointOf(method, path)} with something that is not JSON`,
          {
            endpoint: endpointOf(method, path),
          },
        );
      }
    }
    const result = schema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      throw new CleverCallError(
        'invalid-response',
        `Clever Cloud answered ${endpointOf(method, path)} with an unexpected shape${where}: ${issue?.message ?? 'invalid'}`,
        { endpoint: endpointOf(method, path) },
      );
    }
    return result.data;
  }

  /** One call: ky with its retries; any failure becomes a CleverCallError without a credential in it. */
  private async request(method: string, path: string, options: Options): Promise<Response> {
    const endpoint = endpointOf(method, path);
    const started = performance.now();
    try {
      const response = await this.http(path, { ...options, method });
      this.options.onCall?.({
        endpoint,
        status: response.status,
        outcome: 'ok',
        durationMs: performance.now() - started,
      });
      return response;
    } catch (error) {
      const failure = await toCallError(error, endpoint, this.credentials);
      this.options.onCall?.({
        endpoint,
        status: failure.status,
        outcome: failure.kind,
        durationMs: performance.now() - started,
      });
      throw failure;
    }
  }
}

export function ownerPath(ownerId: string): string {
  return `v2/organisations/${encodeURIComponent(ownerId)}`;
}

export function appPath(ownerId: string, appId: string): string {
  return `${ownerPath(ownerId)}/applications/${encodeURIComponent(appId)}`;
}

/** "GET /v2/organisations/:XXX/applications/:XXX", as the OpenAPI excerpt names endpoints. */
export function endpointOf(method: string, path: string): string {
  const normalized = `/${path}`.replace(/\/(organisations|applications|deployments)\/[^/]+/g, '/$1/:XXX');
  return `${method.toUpperCase()} ${normalized}`;
}
