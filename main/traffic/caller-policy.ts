/**
 * Each caller answered as it expects, per route (shared/front-door.ts): the route a Host names, the
 * quiet user agents (link previewers, uptime monitors, search crawlers) that never wake an app, and
 * the answers the wake proxy gives in place of a sleeping app: the `unavailable` 503, the status 200
 * for ignored requests, the 503 of a held request whose app went to Error and the 504 of one whose
 * app did not come up within the fail timeout.
 */
import type { ServerResponse } from 'node:http';
import { type AppRecord, CAUSES, CONSOLE_LABELS } from '../../shared/domain.ts';
import { type FrontDoor, frontDoorOf, quietAgentOf } from '../../shared/front-door.ts';
import type { Route } from '../../shared/routes.ts';

/** The front-door settings of the route a Host names (the defaults for a host a rule serves). */
export class CallerPolicy {
  private built: { routes: readonly Route[]; map: Map<string, FrontDoor> } | null = null;
  private readonly routes: () => readonly Route[];

  constructor(routes: () => readonly Route[]) {
    this.routes = routes;
  }

  doorFor(host: string): FrontDoor {
    const routes = this.routes();
    if (this.built?.routes !== routes) {
      const map = new Map<string, FrontDoor>();
      for (const r of routes) if (r.enabled) for (const h of r.hosts) map.set(h, frontDoorOf(r));
      this.built = { routes, map };
    }
    return this.built.map.get(host) ?? frontDoorOf(undefined);
  }
}

/** Why a request must not wake the app nor count as traffic for its user agent, or null. */
export function quietBecause(userAgent: string | undefined, door: FrontDoor): string | null {
  const agent = quietAgentOf(userAgent, door.quietAgents);
  return agent ? `user agent ${agent.name} (${agent.kind})` : null;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A short text answer the wake proxy gives itself (a refusal, a loop, no route). */
export function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

function json(res: ServerResponse, status: number, body: unknown, retryAfter?: number): void {
  res.writeHead(status, {
    'content-type': JSON_TYPE,
    'cache-control': 'no-store',
    ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
  });
  res.end(JSON.stringify(body));
}

/**
 * A request that does not wake the sleeping app (filtered, or a quiet user agent): 503 with
 * Retry-After (as before), or 200 with a small status body, per route.
 */
export function answerIgnored(res: ServerResponse, record: AppRecord, door: FrontDoor, why: string): void {
  if (door.ignoredAnswer === 'status') {
    json(res, 200, { app: record.name, state: CONSOLE_LABELS[record.state], woken: false, why });
    return;
  }
  res.writeHead(503, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'retry-after': '30',
  });
  res.end(`${record.name} is asleep; this request (${why}) does not wake it`);
}

/** `unavailable`: a JSON 503 at once; the wake is asked all the same. */
export function answerUnavailable(res: ServerResponse, record: AppRecord, retryAfter: number): void {
  json(
    res,
    503,
    {
      error: `${record.name} is waking up; retry later`,
      state: CONSOLE_LABELS[record.state],
      retryAfterSeconds: retryAfter,
    },
    retryAfter,
  );
}

/**
 * How a held caller (a request or an upgrade, `hold`) is answered when it cannot be passed on:
 * - the app went to Error: 503 at once, with the cause; but an Error for not coming up within the fail
 *   timeout is the fail timeout, so it is answered as one;
 * - the fail timeout passed (the app still not up): 504 Gateway Timeout, with Retry-After;
 * - the app was released meanwhile: 503.
 * `reached` is the record that ended the hold (Error), or null when the hold timed out or the app was
 * released; `latest` the app's record now (undefined once released).
 */
export function heldAnswer(
  name: string,
  reached: AppRecord | null,
  latest: AppRecord | undefined,
  retryAfter: number,
): { status: 503 | 504; body: Record<string, unknown>; retryAfter: number } {
  if (reached?.state === 'Error' && reached.cause !== CAUSES.startTimeout) {
    return {
      status: 503,
      body: { error: `${name} could not be started`, state: CONSOLE_LABELS.Error, cause: reached.cause },
      retryAfter: 30,
    };
  }
  if (!latest) {
    return {
      status: 503,
      body: {
        error: `${name} was released while waking up`,
        state: 'Released',
        retryAfterSeconds: retryAfter,
      },
      retryAfter,
    };
  }
  return {
    status: 504,
    body: {
      error: `${name} did not come up within the fail timeout`,
      state: CONSOLE_LABELS[latest.state],
      ...(latest.cause ? { cause: latest.cause } : {}),
      retryAfterSeconds: retryAfter,
    },
    retryAfter,
  };
}

/** A held request that cannot be passed on (see heldAnswer), as JSON. */
export function answerHeld(
  res: ServerResponse,
  name: string,
  reached: AppRecord | null,
  latest: AppRecord | undefined,
  retryAfter: number,
): void {
  const { status, body, retryAfter: after } = heldAnswer(name, reached, latest, retryAfter);
  json(res, status, body, after);
}
