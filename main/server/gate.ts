/**
 * The door of the HTTP transport: who a request is from (a bearer token, or a browser's session
 * cookie), whether their role allows the call, and the people API (sign in and out, tokens, audit).
 *
 * - 401 without a credential or with a wrong one; 403 naming the role a call needs; 429 with
 *   Retry-After while the client's address is slowed down after wrong tokens (throttle.ts).
 * - A change (any method but GET and HEAD) authenticated by the cookie must come from the server's own
 *   origin (Origin, or Sec-Fetch-Site: same-origin; a foreign Origin is refused before this) and carry
 *   the session's CSRF token (X-CSRF-Token). A bearer header needs neither: scripts keep working.
 * - The cookie: HttpOnly, SameSite=Strict, Path=/, Max-Age of the session, Secure when the request came
 *   over TLS (directly or, by X-Forwarded-Proto, through the platform's proxy).
 * - Never a token, a hash or a cookie in a log line.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CallName, neededRole } from '../../shared/api.ts';
import type { ErrorBody } from '../../shared/api-errors.ts';
import { matchPath } from '../../shared/api-http.ts';
import { parseInput } from '../../shared/errors.ts';
import type { Log } from '../../shared/log.ts';
import {
  CSRF_HEADER,
  needsRoleMessage,
  PEOPLE_ROUTES,
  type PeopleCall,
  type Principal,
  type Role,
  roleAllows,
  SESSION_COOKIE,
  type SessionInfo,
  VIA_HEADER,
  VIAS,
  type Via,
} from '../../shared/people.ts';
import { auditQuerySchema, tokenCreateSchema, tokenNameSchema } from '../../shared/people-schemas.ts';
import { clientAddress } from '../traffic/limits.ts';
import { sendError, writeJson } from './answers.ts';
import type { People } from './people.ts';
import { Throttle } from './throttle.ts';
import { bearerToken, sameToken } from './token.ts';

/** Who a request is from, once authenticated. */
export interface Who extends Principal {
  via: Via;
  by: 'session' | 'bearer';
  csrf: string | null;
  expiresAt: number | null;
}

export interface GateOptions {
  /** Tokens and sessions; without it, the bootstrap token alone (an admin). */
  people?: People;
  bootstrap: string;
  throttle?: Throttle;
  /** Record a configuration change (the audit); absent: not recorded. */
  audit?: (who: Who, what: string, target: string | null, before: unknown, after: unknown) => Promise<void>;
  log?: Log;
}

const UNSAFE = (method: string | undefined) => method !== 'GET' && method !== 'HEAD';

function cookieOf(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return null;
}

function viaOf(req: IncomingMessage, by: 'session' | 'bearer'): Via {
  const said = String(req.headers[VIA_HEADER] ?? '').toLowerCase();
  if ((VIAS as readonly string[]).includes(said)) return said as Via;
  return by === 'session' ? 'dashboard' : 'api';
}

function overTls(req: IncomingMessage): boolean {
  const proto = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]!
    .trim()
    .toLowerCase();
  return (req.socket as { encrypted?: boolean }).encrypted === true || proto === 'https';
}

/** 429 with Retry-After: the address is slowed down after wrong tokens (nothing was checked). */
function tooMany(res: ServerResponse, wait: number): void {
  res.setHeader('retry-after', String(wait));
  const message = `too many wrong tokens from this address: try again in ${wait} s`;
  writeJson(res, 429, JSON.stringify({ error: { code: 'unauthorized', message } }));
}

const equal = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export class Gate {
  readonly throttle: Throttle;
  private readonly options: GateOptions;

  constructor(options: GateOptions) {
    this.options = options;
    this.throttle = options.throttle ?? new Throttle();
  }

  /** Who a request is from; null once it was answered (401, 403 for a change without CSRF, 429). */
  async authenticate(req: IncomingMessage, res: ServerResponse): Promise<Who | null> {
    const address = clientAddress(req.socket);
    const wait = this.throttle.closed(address);
    if (wait !== null) {
      tooMany(res, wait);
      return null;
    }
    const header = req.headers.authorization;
    const cookie = cookieOf(req);
    if (header !== undefined) {
      const given = bearerToken(header);
      const checked = given === null ? null : await this.check(given);
      if (!checked) return this.wrong(res, address, 'a valid token is needed (Authorization: Bearer ...)');
      this.throttle.succeeded(address);
      return {
        ...checked.principal,
        via: viaOf(req, 'bearer'),
        by: 'bearer',
        csrf: null,
        expiresAt: checked.expiresAt,
      };
    }
    if (cookie !== null && this.options.people) {
      const session = await this.options.people.session(cookie);
      if (!session) return this.wrong(res, address, 'the session has ended: sign in again', true);
      this.throttle.succeeded(address);
      if (UNSAFE(req.method)) {
        const problem = this.sameOriginProblem(req, session.csrf);
        if (problem) {
          sendError(res, { error: { code: 'forbidden', message: problem } });
          return null;
        }
      }
      return {
        ...session.principal,
        via: viaOf(req, 'session'),
        by: 'session',
        csrf: session.csrf,
        expiresAt: session.expiresAt,
      };
    }
    res.setHeader('www-authenticate', 'Bearer realm="clever-reaper"');
    sendError(res, {
      error: { code: 'unauthorized', message: 'sign in, or send a token (Authorization: Bearer ...)' },
    });
    return null;
  }

  /**
   * Who a request's session cookie is, for the page (GET /): null without a cookie, with one that is
   * not a session (any more), or while the address is slowed down. Answers nothing and counts no
   * failure: the page is then served as to anyone (its token screen asks).
   */
  async sessionOf(req: IncomingMessage): Promise<Who | null> {
    const cookie = cookieOf(req);
    const people = this.options.people;
    if (cookie === null || !people || this.throttle.closed(clientAddress(req.socket)) !== null) return null;
    const session = await people.session(cookie);
    if (!session) return null;
    return {
      ...session.principal,
      via: 'dashboard',
      by: 'session',
      csrf: session.csrf,
      expiresAt: session.expiresAt,
    };
  }

  private sameOriginProblem(req: IncomingMessage, csrf: string): string | null {
    const fetchSite = req.headers['sec-fetch-site'];
    if (req.headers.origin === undefined && fetchSite !== 'same-origin')
      return 'a change made with a session must come from the dashboard (no Origin header)';
    const given = String(req.headers[CSRF_HEADER] ?? '');
    if (!given || !equal(given, csrf))
      return 'a change made with a session needs its CSRF token (X-CSRF-Token)';
    return null;
  }

  private async check(given: string) {
    if (this.options.people) return this.options.people.check(given);
    return sameToken(given, this.options.bootstrap)
      ? { principal: { name: 'bootstrap', role: 'admin' as Role }, tokenId: 'bootstrap', expiresAt: null }
      : null;
  }

  private wrong(res: ServerResponse, address: string, message: string, clearCookie = false): null {
    this.throttle.failed(address);
    res.setHeader('www-authenticate', 'Bearer realm="clever-reaper"');
    if (clearCookie)
      res.setHeader('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
    sendError(res, { error: { code: 'unauthorized', message } });
    return null;
  }

  /** 403 naming the role when `who` may not make this call (with this input); null when allowed. */
  refusal(who: Principal, name: CallName, raw: unknown): ErrorBody | null {
    return this.refusalFor(who, neededRole(name, raw));
  }

  refusalFor(who: Principal, need: Role | null): ErrorBody | null {
    if (need === null || roleAllows(who.role, need)) return null;
    return { error: { code: 'forbidden', message: needsRoleMessage(need, who.role) } };
  }

  /** The people call a request names, with its path parameters; null when none. */
  static match(method: string, path: string): { call: PeopleCall; params: Record<string, string> } | null {
    for (const [call, route] of Object.entries(PEOPLE_ROUTES) as [
      PeopleCall,
      (typeof PEOPLE_ROUTES)[PeopleCall],
    ][]) {
      if (route.method !== method) continue;
      const params = matchPath(route.path, path);
      if (params) return { call, params };
    }
    return null;
  }

  /** Sign in: the token in the body checked (and throttled), a session opened, its cookie set. */
  async signIn(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const address = clientAddress(req.socket);
    const wait = this.throttle.closed(address);
    if (wait !== null) {
      tooMany(res, wait);
      return;
    }
    const people = this.options.people;
    const given = (body as { token?: unknown } | null)?.token;
    const checked = typeof given === 'string' ? await this.check(given.trim()) : null;
    if (!checked || !people) {
      this.wrong(
        res,
        address,
        people
          ? 'this token is not valid (wrong, revoked or expired)'
          : 'sign-in sessions are not available here',
      );
      return;
    }
    this.throttle.succeeded(address);
    const session = await people.openSession(checked);
    const maxAge = Math.max(1, Math.floor((session.expiresAt - Date.now()) / 1000));
    res.setHeader(
      'set-cookie',
      `${SESSION_COOKIE}=${session.cookie}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${overTls(req) ? '; Secure' : ''}`,
    );
    const info: SessionInfo = {
      ...checked.principal,
      by: 'session',
      csrf: session.csrf,
      expiresAt: session.expiresAt,
    };
    writeJson(res, 200, JSON.stringify(info));
  }

  /** The people calls but sign-in, for an authenticated request whose role allows them. */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    who: Who,
    call: Exclude<PeopleCall, 'signIn'>,
    params: Record<string, string>,
    body: unknown,
    query: URLSearchParams,
  ): Promise<void> {
    const people = this.options.people;
    const answer = (value: unknown, status = 200) => writeJson(res, status, JSON.stringify(value));
    if (call === 'whoami') {
      const info: SessionInfo = {
        name: who.name,
        role: who.role,
        by: who.by,
        csrf: who.csrf,
        expiresAt: who.expiresAt,
      };
      return answer(info);
    }
    if (call === 'signOut') {
      const cookie = cookieOf(req);
      if (cookie !== null && people) await people.endSession(cookie);
      res.setHeader('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
      return answer({ signedOut: true });
    }
    if (!people) {
      sendError(res, {
        error: { code: 'unavailable', message: 'personal tokens are not available on this server' },
      });
      return;
    }
    switch (call) {
      case 'listTokens':
        return answer(await people.listTokens());
      case 'createToken': {
        const input = parseInput(tokenCreateSchema, body ?? {});
        const created = await people.createToken(input, who.name);
        await this.options.audit?.(who, 'token', created.info.name, null, created.info);
        this.options.log?.(
          'info',
          `token '${created.info.name}' (${created.info.role}) created by ${who.name}`,
        );
        return answer(created, 201);
      }
      case 'revokeToken': {
        const name = parseInput(tokenNameSchema, params.name ?? '', 'name');
        const revoked = await people.revokeToken(name);
        await this.options.audit?.(who, 'token', name, { ...revoked, revokedAt: null }, revoked);
        this.options.log?.('info', `token '${name}' revoked by ${who.name}`);
        return answer(revoked);
      }
      case 'audit': {
        // Filtered in the datastore's SQL (a page is full whatever the filter); a wrong filter is a
        // 400 saying what is wrong, never dropped. An empty value is no filter.
        const given = Object.fromEntries([...query].filter(([, v]) => v !== ''));
        const { limit, before, ...filter } = parseInput(auditQuerySchema, given);
        return answer(await people.store.audit(limit ?? 100, before, filter));
      }
    }
  }
}
