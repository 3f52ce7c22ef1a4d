/**
 * The Clever Cloud client: every call the reaper makes to the API, by subject.
 *
 * - Auth: OAuth1 PLAINTEXT or Bearer (see credentials.ts); the base URL is configurable (API_HOST),
 *   which is how tests point it at the simulator.
 * - Typed results validated at the boundary (schemas.ts).
 * - Errors are CleverCallError: HTTP status, Clever Cloud error id and message; 4014 is "never
 *   deployed". No credential ever appears in a message (call-errors.ts).
 * - Retries with backoff, a timeout per attempt, one record per call (http.ts); every call takes an
 *   AbortSignal. The access-log streams are in access-log-streams.ts, the price system in prices.ts.
 */

import { CleverCallError } from '../../shared/port-errors.ts';
import type { SseEvent } from '../../shared/sse.ts';
import type { CleverApp, CleverCloudPort, CleverDeployment, CleverOwner } from '../engine/ports.ts';
import { AccessLogStreams } from './access-log-streams.ts';
import { authorizationHeader, type Credentials } from './credentials.ts';
import { type CleverEvent, eventSocket } from './events.ts';
import { appPath, CleverHttp, type ClientOptions, ownerPath } from './http.ts';
import { type AppPricePlan, type PriceSystem, readPricePlans, readPriceSystem } from './prices.ts';
import {
  type ApplicationJson,
  applicationSchema,
  deploymentSchema,
  normalizeDate,
  organisationSchema,
  startAnswerSchema,
  userSchema,
  vhostSchema,
} from './schemas.ts';

export type { CallRecord, ClientOptions } from './http.ts';
export type { AppPricePlan, PriceSystem } from './prices.ts';

export class CleverClient implements CleverCloudPort {
  readonly apiHost: string;
  private readonly credentials: Credentials;
  private readonly http: CleverHttp;
  private readonly streams: AccessLogStreams;

  constructor(options: ClientOptions) {
    this.http = new CleverHttp(options);
    this.streams = new AccessLogStreams(this.http);
    this.credentials = this.http.credentials;
    this.apiHost = this.http.apiHost;
  }

  // ---- owners ----------------------------------------------------------------------------------

  async self(
    options: { signal?: AbortSignal } = {},
  ): Promise<{ id: string; name: string; email: string | null }> {
    const user = await this.http.get('v2/self', userSchema, options);
    return { id: user.id, name: user.name ?? user.id, email: user.email ?? null };
  }

  async listOwners(options: { signal?: AbortSignal } = {}): Promise<CleverOwner[]> {
    const [user, organisations] = await Promise.all([
      this.self(options),
      this.http.get('v2/organisations', organisationSchema.array(), options),
    ]);
    const owners: CleverOwner[] = [{ id: user.id, name: 'Personal space' }];
    for (const o of organisations) {
      // The list holds the personal space too; organisations are the orga_ ids.
      if (o.id.startsWith('orga_')) owners.push({ id: o.id, name: o.name ?? o.id });
    }
    return owners;
  }

  // ---- applications ----------------------------------------------------------------------------

  async listApplications(ownerId: string, options: { signal?: AbortSignal } = {}): Promise<CleverApp[]> {
    const apps = await this.http.get(
      `${ownerPath(ownerId)}/applications`,
      applicationSchema.array(),
      options,
    );
    return apps.map((a) => toCleverApp(a, ownerId));
  }

  async getApplication(ownerId: string, appId: string, options: { signal?: AbortSignal } = {}) {
    const app = await this.http.get(`${appPath(ownerId, appId)}`, applicationSchema, options, null);
    return app ? toCleverApp(app, ownerId) : null;
  }

  async listVhosts(
    ownerId: string,
    appId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<string[]> {
    const list = await this.http.get(`${appPath(ownerId, appId)}/vhosts`, vhostSchema.array(), options, []);
    return list.map((v) => v.fqdn);
  }

  async startApplication(ownerId: string, appId: string, options: { signal?: AbortSignal } = {}) {
    const answer = await this.http.send(
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
    await this.http.send('delete', `${appPath(ownerId, appId)}/instances`, null, options);
  }

  // ---- deployments -----------------------------------------------------------------------------

  async listDeployments(
    ownerId: string,
    appId: string,
    options: { signal?: AbortSignal; limit?: number } = {},
  ): Promise<CleverDeployment[]> {
    const list = await this.http.get(
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
    return this.http.get(path, deploymentSchema, options, null);
  }

  // ---- the price system (prices.ts) ------------------------------------------------------------

  /** The price system of a zone: the owner's own, else the public one; null when neither has one. */
  async priceSystem(
    ownerId: string,
    zone: string,
    options: { signal?: AbortSignal; currency?: string } = {},
  ): Promise<PriceSystem | null> {
    return readPriceSystem(this.http, ownerId, zone, options);
  }

  /** Each app's flavor plan key (`price_id` of its minimum flavor) and zone, for the price system. */
  async listPricePlans(ownerId: string, options: { signal?: AbortSignal } = {}): Promise<AppPricePlan[]> {
    return readPricePlans(this.http, ownerId, options);
  }

  // ---- streams ---------------------------------------------------------------------------------

  /**
   * Follow the access-log stream of an app (server-sent events): `onEvent` is called with each event
   * as it is read. Resolves when the server ends the stream or the signal aborts; the caller resumes
   * with `lastEventId`. Rejects with a CleverCallError when the stream cannot be opened or breaks.
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
    return this.streams.follow(ownerId, appId, options);
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
