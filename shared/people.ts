/**
 * People on a team server: personal tokens, their roles, and who did what. Pure (shared by the
 * server, the dashboard and the desktop).
 *
 * - viewer: reads everything but secrets (a webhook's URL is shown by its origin only);
 * - operator: a viewer who also acts on apps (wake, reset, keep awake, bulk of those);
 * - admin: everything (routes, rules, settings, kill switch, dry-run, credentials, webhooks, tokens).
 *
 * No zod here: the dashboard's boot chunk imports this module (its schemas are in people-schemas.ts).
 */

export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Whether a person of role `have` may make a call that needs `need`. */
export function roleAllows(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/** Through what a change was asked for (the history's and the audit's `via`). */
export const VIAS = ['dashboard', 'api', 'desktop', 'tray', 'cli'] as const;
export type Via = (typeof VIAS)[number];

/** Who asked for a manual action, and through what: a history entry's `by` (automatic ones have none). */
export interface By {
  name: string;
  via: Via;
}

/** When the kill switch was turned on, and by whom (null: by an older version, or not known). */
export interface KillSwitchOn {
  at: number;
  by: By | null;
}

/** Who a request is from, once authenticated. */
export interface Principal {
  /** The token's name ("alice"), or `BOOTSTRAP_NAME` for the bootstrap token. */
  name: string;
  role: Role;
}

/** The name the bootstrap token (REAPER_ADMIN_TOKEN, or the generated file) acts under. */
export const BOOTSTRAP_NAME = 'bootstrap';

/** A person's name: what `tokens create --name` takes. */
export const PERSON_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** A token as listed: never its secret nor its hash. */
export interface TokenInfo {
  name: string;
  role: Role;
  createdAt: number;
  createdBy: string;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** What the server answers to "who am I" (GET /api/session). */
export interface SessionInfo {
  name: string;
  role: Role;
  /** How the request was authenticated. */
  by: 'session' | 'bearer';
  /** The CSRF token a cookie-authenticated change sends back (X-CSRF-Token); null with a bearer. */
  csrf: string | null;
  expiresAt: number | null;
}

/** One configuration change, as the audit keeps it. */
export interface AuditEntry {
  id: number;
  at: number;
  /** The person (a token's name). */
  by: string;
  via: Via;
  /** What was changed: "settings", "route", "rule", "killSwitch", "dryRun", "token". */
  what: string;
  /** Which one (a route's id, a token's name), or null. */
  target: string | null;
  /** JSON of what it was and what it became (null: did not exist / no longer exists). */
  before: unknown;
  after: unknown;
}

/**
 * What the audit is filtered on, in the datastore's SQL (both stores): what was changed, by whom,
 * which one, through what, and when (epoch ms, both ends included).
 */
export interface AuditFilter {
  what?: string;
  by?: string;
  target?: string;
  via?: Via;
  from?: number;
  to?: number;
}

/**
 * The audit's filters and page (GET /api/audit): `before` is the cursor, the oldest id of the page
 * shown so far (the next page is older); `limit` at most AUDIT_LIMIT_MAX.
 */
export interface AuditQuery extends AuditFilter {
  before?: number;
  limit?: number;
}

/** The most entries one page of the audit answers. */
export const AUDIT_LIMIT_MAX = 500;

/** What the audit view filters on (AuditEntry's `what`). */
export const AUDIT_WHATS = [
  'route',
  'rule',
  'settings',
  'killSwitch',
  'dryRun',
  'token',
  'release',
  'credentials',
] as const;

/** A duration as `--expires` takes it: 30d, 12h, 90m. */
export function parseDuration(text: string): number {
  const m = /^(\d{1,6})([dhm])$/.exec(text.trim());
  if (!m) throw new Error(`'${text}' is not a duration (like 30d, 12h or 90m)`);
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  const ms = Number(m[1]) * unit;
  if (ms <= 0) throw new Error(`'${text}' is not a duration longer than zero`);
  return ms;
}

/** The people API of the HTTP transport (sign-in sessions, tokens, audit), each with its role. */
export const PEOPLE_ROUTES = {
  /** Sign in: `{ token }` in, a session cookie out (no role: the token is the credential). */
  signIn: { method: 'POST', path: '/api/session', role: null },
  whoami: { method: 'GET', path: '/api/session', role: 'viewer' },
  signOut: { method: 'DELETE', path: '/api/session', role: 'viewer' },
  listTokens: { method: 'GET', path: '/api/tokens', role: 'admin' },
  createToken: { method: 'POST', path: '/api/tokens', role: 'admin' },
  revokeToken: { method: 'DELETE', path: '/api/tokens/:name', role: 'admin' },
  audit: { method: 'GET', path: '/api/audit', role: 'viewer' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'DELETE'; path: string; role: Role | null }>;
export type PeopleCall = keyof typeof PEOPLE_ROUTES;

/** The header a client names itself with (dashboard, desktop, tray); a script sends none ("api"). */
export const VIA_HEADER = 'x-reaper-via';
/** The header a cookie-authenticated change carries its session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';
/** The session cookie's name. */
export const SESSION_COOKIE = 'reaper_session';

/** A refusal's words: which role the call needs. */
export function needsRoleMessage(need: Role, have: Role): string {
  return `this needs the ${need} role; you are signed in as ${have}`;
}
