/**
 * The Clever Cloud client: every call the reaper makes to the API, on ky.
 *
 * - Auth: OAuth1 PLAINTEXT or Bearer (see credentials.ts); the base URL is configurable (API_HOST),
 *   which is how tests point it at the simulator.
 * - Typed results validated at the boundary (schemas.ts).
 * - Errors are CleverCallError: HTTP status, Clever Cloud error id and message; 4014 is "never
 *   deployed". No credential ever appears in a message.
 * - Retries with exponential backoff and full jitter on network errors, timeouts, 5xx and 429
 *   (honouring Retry-After), never on other 4xx. Reads are retried; a start or a stop is retried only
 *   when it surely did not reach Clever Cloud (429, connection refused), because its answer could be
 *   lost after it was carried out: the engine checks the deployments before sending it again.
 * - A timeout per attempt; every call takes an AbortSignal.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import ky, { HTTPError, isNetworkError, isTimeoutError, type KyInstance, type Options } from 'ky';
import type { z } from 'zod';
import { type SseEvent, SseParser } from '../../shared/sse.ts';
import {
  type CleverApp,
  CleverCallError,
  type CleverCloudPort,
  type CleverDeployment,
  type CleverErrorKind,
  type CleverOwner,
} from '../engine/ports.ts';
import { authorizationHeader, type Credentials, secretSetOf } from './credentials.ts';
import { type CleverEvent, eventSocket } from './events.ts';
import { externalText, redactSecrets, type SecretSet } from './redaction.ts';
import {
  type ApplicationJson,
  applicationSchema,
  deploymentSchema,
  errorBodySchema,
  normalizeDate,
  organisationSchema,
  priceSystemSchema,
  startAnswerSchema,
  userSchema,
  vhostSchema,
} from './schemas.ts';

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

/** Did the request surely not reach the server (safe to send again)? */
function notSent(error: unknown): boolean {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: string }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export class CleverClient implements CleverCloudPort {
  readonly apiHost: string;
  private readonly credentials: Credentials;
  private readonly http: KyInstance;
  private readonly options: ClientOptions;
  private accessLogPath: 'accesslogs' | 'logs' = 'accesslogs';

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

  // ---- the port --------------------------------------------------------------------------------

  async self(
    options: { signal?: AbortSignal } = {},
  ): Promise<{ id: string; name: string; email: string | null }> {
    const user = await this.get('v2/self', userSchema, options);
    return { id: user.id, name: user.name ?? user.id, email: user.email ?? null };
  }

  async listOwners(options: { signal?: AbortSignal } = {}): Promise<CleverOwner[]> {
    const [user, organisations] = await Promise.all([
      this.self(options),
      this.get('v2/organisations', organisationSchema.array(), options),
    ]);
    const owners: CleverOwner[] = [{ id: user.id, name: 'Personal space' }];
    for (const o of organisations) {
      // The list holds the personal space too; organisations are the orga_ ids.
      if (o.id.startsWith('orga_')) owners.push({ id: o.id, name: o.name ?? o.id });
    }
    return owners;
  }

  async listApplications(ownerId: string, options: { signal?: AbortSignal } = {}): Promise<CleverApp[]> {
    const apps = await this.get(`${ownerPath(ownerId)}/applications`, applicationSchema.array(), options);
    return apps.map((a) => toCleverApp(a, ownerId));
  }

  async getApplication(ownerId: string, appId: string, options: { signal?: AbortSignal } = {}) {
    const app = await this.get(`${appPath(ownerId, appId)}`, applicationSchema, options, null);
    return app ? toCleverApp(app, ownerId) : null;
  }

  /**
   * The price system of a zone, as the console reads it: the owner's own first
   * (`/v4/billing/organisations/{ownerId}/price-system?zone_id=`, clever-client.js
   * GetPriceSystemCommand), else the public one (`/v4/billing/price-system?zone_id=&currency=`,
   * clever-components api-helpers.js fetchPriceSystem). null when neither has one (404).
   */
  async priceSystem(
    ownerId: string,
    zone: string,
    options: { signal?: AbortSignal; currency?: string } = {},
  ): Promise<PriceSystem | null> {
    const signal = options.signal ? { signal: options.signal } : {};
    let raw: z.output<typeof priceSystemSchema> | null = null;
    try {
      raw = await this.get(
        `v4/billing/organisations/${encodeURIComponent(ownerId)}/price-system`,
        priceSystemSchema,
        { ...signal, searchParams: { zone_id: zone } },
        null,
      );
    } catch (error) {
      // An owner the credentials may not read the billing of: the public prices still apply.
      if (!(error instanceof CleverCallError && error.kind === 'forbidden')) throw error;
    }
    raw ??= await this.get(
      'v4/billing/price-system',
      priceSystemSchema,
      { ...signal, searchParams: { zone_id: zone, currency: options.currency ?? 'EUR' } },
      null,
    );
    if (!raw) return null;
    return {
      zone: raw.zone_id ?? zone,
      currency: raw.currency,
      runtime: raw.runtime.map((r) => ({ priceId: r.slug_id, price: r.price, timeUnit: r.time_unit })),
    };
  }

  /** Each app's flavor plan key (`price_id` of its minimum flavor) and zone, for the price system. */
  async listPricePlans(ownerId: string, options: { signal?: AbortSignal } = {}): Promise<AppPricePlan[]> {
    const apps = await this.get(`${ownerPath(ownerId)}/applications`, applicationSchema.array(), options);
    return apps.map((a) => {
      const flavor = a.instance?.minFlavor ?? a.instance?.maxFlavor ?? null;
      return {
        appId: a.id,
        ownerId: a.ownerId ?? ownerId,
        priceId: flavor?.price_id ?? null,
        zone: a.zone ?? a.zoneId ?? null,
      };
    });
  }

  async listDeployments(
    ownerId: string,
    appId: string,
    options: { signal?: AbortSignal; limit?: number } = {},
  ): Promise<CleverDeployment[]> {
    const list = await this.get(
      `${appPath(ownerId, appId)}/deployments`,
      deploymentSchema.array(),
      {
        ...options,
        searchParams: { limit: String(options.limit ?? 10) },
      },
      [],
    );
    return list.map((d, i) => {
      const date = normalizeDate(d.date);
      if (date === null) {
        throw new CleverCallError('invalid-response', `a deployment of ${appId} has an unreadable date`, {
          endpoint: 'GET /v2/organisations/:XXX/applications/:XXX/deployments',
        });
      }
      // A WIP deployment with a newer start or stop listed after it did not finish: Clever Cloud's
      // tools show it as failed. An autoscaling entry (UPSCALE, DOWNSCALE...) listed after it says
      // nothing of it.
      const overtaken = d.state === 'WIP' && list.slice(0, i).some((n) => isStartOrStop(n.action));
      const state = overtaken ? 'FAIL' : d.state;
      return { uuid: d.uuid, state, action: d.action ?? null, date, cause: d.cause ?? null };
    });
  }

  async getDeployment(
    ownerId: string,
    appId: string,
    deploymentId: string,
    options: { signal?: AbortSignal } = {},
  ) {
    const path = `${appPath(ownerId, appId)}/deployments/${encodeURIComponent(deploymentId)}`;
    return this.get(path, deploymentSchema, options, null);
  }

  async listVhosts(
    ownerId: string,
    appId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<string[]> {
    const list = await this.get(`${appPath(ownerId, appId)}/vhosts`, vhostSchema.array(), options, []);
    return list.map((v) => v.fqdn);
  }

  async startApplication(ownerId: string, appId: string, options: { signal?: AbortSignal } = {}) {
    const answer = await this.send(
      'post',
      `${appPath(ownerId, appId)}/instances`,
      startAnswerSchema,
      options,
    );
    return { deploymentId: answer?.deploymentId ?? null };
  }

  async stopApplication(
    ownerId: string,
    appId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    await this.send('delete', `${appPath(ownerId, appId)}/instances`, null, options);
  }

  /**
   * Follow the access-log stream of an app (server-sent events): `onEvent` is called with each event
   * as it is read. Resolves when the server ends the stream or the signal aborts; the caller resumes
   * with `lastEventId`. Rejects with a CleverCallError when the stream cannot be opened or breaks.
   * The path clients use is tried first, then the one of the OpenAPI description (which of the two
   * is canonical is not confirmed).
   */
  async accessLogs(
    ownerId: string,
    appId: string,
    options: {
      signal?: AbortSignal;
      lastEventId?: string | null;
      since?: string;
      onEvent: (event: SseEvent) => void;
    },
  ): Promise<void> {
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
        else void this.toCallError(error, endpoint).then(reject);
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

  /** The event socket takes an OAuth authorization: not available with an API token. */
  get hasEventSocket(): boolean {
    return this.credentials.kind === 'oauth1';
  }

  /**
   * The platform's events (deployments beginning and ending...), for OAuth credentials (the socket's
   * authorization is an OAuth header); nothing for an API token. Ends when the socket closes.
   */
  events(options: { signal?: AbortSignal } = {}): AsyncGenerator<CleverEvent> | null {
    if (!this.hasEventSocket) return null;
    const url = `${this.apiHost.replace(/^http/, 'ws')}/v2/events/event-socket`;
    return eventSocket(url, authorizationHeader(this.credentials), options);
  }

  // ---- plumbing --------------------------------------------------------------------------------

  private async get<S extends z.ZodType, F = never>(
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

  private async send<S extends z.ZodType>(
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
    const endpoint = endpointOf('get', path);
    const started = performance.now();
    const record = (status: number | null, outcome: CallRecord['outcome']) =>
      this.options.onCall?.({ endpoint, status, outcome, durationMs: performance.now() - started });
    const url = new URL(`${this.apiHost}/${path}`);
    url.search = query.toString();
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const fail = (error: unknown) => {
        void this.toCallError(error, endpoint).then((failure) => {
          record(failure.status, failure.kind);
          reject(failure);
        });
      };
      const req = send(
        url,
        {
          headers: { authorization: authorizationHeader(this.credentials), ...headers },
          ...(signal ? { signal } : {}),
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
            const failure = this.statusError(status, data, endpoint);
            record(status, failure.kind);
            reject(failure);
          });
        },
      );
      req.on('error', fail);
      req.end();
    });
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
      const failure = await this.toCallError(error, endpoint);
      this.options.onCall?.({
        endpoint,
        status: failure.status,
        outcome: failure.kind,
        durationMs: performance.now() - started,
      });
      throw failure;
    }
  }

  /**
   * An HTTP error status, with the error body's Clever Cloud id and message when it has them. Clever
   * Cloud's text is never kept as it is: the id only when it is a number or a short plain word, the
   * message only once every form of every secret is redacted (redaction.ts), on one line, cut.
   */
  private statusError(status: number, data: unknown, endpoint: string): CleverCallError {
    const body = errorBodySchema.safeParse(data);
    const secrets = secretSetOf(this.credentials);
    const cleverId = body.success ? plainId(body.data.id ?? body.data.code ?? null, secrets) : null;
    const raw = body.success ? (body.data.message ?? body.data.error ?? null) : null;
    const text = raw ? externalText(raw, secrets) : null;
    const kind: CleverErrorKind =
      String(cleverId) === '4014'
        ? 'never-deployed'
        : status === 401
          ? 'unauthorized'
          : status === 403
            ? 'forbidden'
            : status === 404
              ? 'not-found'
              : status === 429
                ? 'rate-limited'
                : status >= 500
                  ? 'server'
                  : 'client';
    const idText = cleverId !== null ? ` (error ${cleverId})` : '';
    const message = `Clever Cloud answered ${status}${idText} to ${endpoint}${text ? `: ${text}` : ''}`;
    return new CleverCallError(kind, message, { status, cleverId, endpoint });
  }

  private async toCallError(error: unknown, endpoint: string): Promise<CleverCallError> {
    const clean = (s: string) => externalText(s, secretSetOf(this.credentials));
    if (error instanceof HTTPError) return this.statusError(error.response.status, error.data, endpoint);
    if (isTimeoutError(error)) {
      return new CleverCallError('timeout', `Clever Cloud did not answer ${endpoint} in time`, { endpoint });
    }
    if (
      error instanceof Error &&
      (error.name === 'AbortError' || (error as { code?: string }).code === 'ABORT_ERR')
    ) {
      return new CleverCallError('aborted', `${endpoint} was cancelled`, { endpoint });
    }
    // fetch's network failures, and node:http's (a system error: ECONNREFUSED, ECONNRESET...).
    const systemError =
      !(error instanceof CleverCallError) && typeof (error as { code?: unknown })?.code === 'string';
    if (isNetworkError(error) || error instanceof TypeError || systemError) {
      const reason = networkReason(error);
      return new CleverCallError(
        'network',
        `Clever Cloud could not be reached for ${endpoint}${reason ? ` (${reason})` : ''}`,
        {
          endpoint,
        },
      );
    }
    if (error instanceof CleverCallError) return error;
    return new CleverCallError(
      'network',
      clean(`${endpoint} failed: ${String((error as Error)?.message ?? error)}`),
      {
        endpoint,
      },
    );
  }
}

/** A Clever Cloud error id worth keeping: a number, or a short plain word that holds no secret. */
function plainId(id: number | string | null, secrets: SecretSet): number | string | null {
  if (typeof id === 'number') return Number.isSafeInteger(id) ? id : null;
  if (id === null || !/^[A-Za-z0-9._-]{1,40}$/.test(id)) return null;
  return redactSecrets(id, secrets) === id ? id : null;
}

function networkReason(error: unknown): string | null {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: string }).code;
    if (code) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** A price system: runtime plans by price id (the flavor's `price_id`), each a price per time unit. */
export interface PriceSystem {
  zone: string;
  currency: string;
  runtime: { priceId: string; price: number; timeUnit: string }[];
}

export interface AppPricePlan {
  appId: string;
  ownerId: string;
  priceId: string | null;
  zone: string | null;
}

function ownerPath(ownerId: string): string {
  return `v2/organisations/${encodeURIComponent(ownerId)}`;
}

function appPath(ownerId: string, appId: string): string {
  return `${ownerPath(ownerId)}/applications/${encodeURIComponent(appId)}`;
}

/** "GET /v2/organisations/:XXX/applications/:XXX", as the OpenAPI excerpt names endpoints. */
export function endpointOf(method: string, path: string): string {
  const normalized = `/${path}`.replace(/\/(organisations|applications|deployments)\/[^/]+/g, '/$1/:XXX');
  return `${method.toUpperCase()} ${normalized}`;
}

export function toCleverApp(app: ApplicationJson, ownerId: string): CleverApp {
  const flavor = app.instance?.minFlavor ?? app.instance?.maxFlavor ?? null;
  return {
    id: app.id,
    ownerId: app.ownerId ?? ownerId,
    name: app.name ?? app.id,
    state: app.state,
    lastDeployNumber: app.last_deploy ?? null,
    instances: {
      min: app.instance?.minInstances ?? 1,
      max: app.instance?.maxInstances ?? app.instance?.minInstances ?? 1,
      flavorName: flavor?.name ?? null,
      flavorPrice: flavor?.price ?? null,
    },
    vhosts: (app.vhosts ?? []).map((v) => v.fqdn),
    lifetime: app.instance?.lifetime ?? null,
  };
}

/** A start or a stop in the activity (an entry without an action counts as one). */
function isStartOrStop(action: string | null | undefined): boolean {
  return !action || action === 'DEPLOY' || action === 'UNDEPLOY';
}
