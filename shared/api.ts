/**
 * The ReaperApi: every call the dashboard (or a script) can make to a running engine, with the
 * schema of its input, the type of its output, and the events the engine pushes.
 *
 * One contract, two transports: HTTP + server-sent events (main/server, see `api-http.ts`) and IPC
 * (the desktop shell). Both hand the raw input to the same service, which parses it with the schema
 * below: nothing reaches the engine unvalidated, and an invalid input names its field.
 */
import { z } from 'zod';
import type { AppView } from './app-view.ts';
import { type BulkResult, bulkInputSchema } from './bulk.ts';
import { type HistoryEntry, REAPER_STATES, type ReaperState, type TrafficSource } from './domain.ts';
import { DAY } from './durations.ts';
import { InputError } from './errors.ts';
import { type HistoryPage, historyQuerySchema, type TransitionDurations } from './history.ts';
import { ROLES, type Role } from './people.ts';
import {
  APP_ID_PATTERN,
  OWNER_ID_PATTERN,
  type Route,
  rangeSchema,
  routeCreateSchema,
  routeUpdateSchema,
} from './routes.ts';
import type { RulePreview } from './rule-preview.ts';
import {
  RULE_ID_PATTERN,
  type Rule,
  ruleCreateSchema,
  rulePreviewSchema,
  ruleUpdateSchema,
} from './rules.ts';
import type { SavingsReport } from './savings.ts';
import { isValidTimeZone, type MustBeUpRange, type ScheduleTransition } from './schedule.ts';
import { type Settings, settingsUpdateSchema } from './settings.ts';
import { says } from './validation.ts';
import type { WakeSources } from './wake-sources.ts';
import { WEBHOOK_EVENTS, type WebhookStatus, type WebhookTestResult, webhookSchema } from './webhooks.ts';

export type { AppView } from './app-view.ts';
export type { WakeSources } from './wake-sources.ts';

// ---- inputs ----------------------------------------------------------------------------------------

/**
 * Keys no request body may hold, at any depth. JSON.parse keeps `"__proto__"` as a plain key, but
 * copying it onto an object (Object.assign, a spread into an existing object) sets that object's
 * prototype, whose fields then pass a strict unknown-key check as if they had been given.
 */
export const FORBIDDEN_BODY_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A request body's JSON text, parsed; an InputError (400) when it holds a key of
 * FORBIDDEN_BODY_KEYS, a SyntaxError when it is not JSON.
 */
export function parseJsonBody(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => {
    if (FORBIDDEN_BODY_KEYS.has(key)) {
      throw InputError.of('', 'forbiddenKey', { key });
    }
    return value;
  });
}

const appId = z.string().regex(APP_ID_PATTERN, says('appId'));
const ownerId = z.string().regex(OWNER_ID_PATTERN, says('ownerId'));
const routeId = z.string().regex(/^route_[A-Za-z0-9-]{1,100}$/, says('routeId'));
const ruleId = z.string().regex(RULE_ID_PATTERN, says('ruleId'));

/** true/false, also written as text in a query string (?wait=true). */
const flag = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1' || v === ''),
]);

/** A number, also written as text in a query string. */
const int = (min: number, max: number) => z.coerce.number<unknown>().int().min(min).max(max);

/** Where an explicit wake comes from (the access log and the wake proxy are not callers). */
export const EXPLICIT_SOURCES = ['dashboard', 'tray', 'admin-api', 'link'] as const satisfies TrafficSource[];

/** An instant: epoch milliseconds, or an ISO 8601 date-time with its offset (2026-01-05T18:00:00Z). */
const instant = z.union([
  z.number().int(),
  z.iso.datetime({ offset: true, message: says('notInstant') }).transform(Date.parse),
]);

const empty = z.object({}).strict();

/** How to connect a Clever Cloud account: a login found on this machine, or a pasted token. */
export const connectInputSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('clever-tools') }).strict(),
  z.object({ source: z.literal('environment') }).strict(),
  z
    .object({
      source: z.literal('pasted'),
      token: z.string().trim().min(1, says('tokenMissing')).max(2000),
      /** The OAuth secret that goes with an OAuth token; absent for an API token. */
      secret: z.string().trim().max(2000).optional(),
    })
    .strict(),
]);
export type ConnectInput = z.input<typeof connectInputSchema>;

/**
 * A call's schema with the role it needs (shared/people.ts): a copy, so one schema (`empty`) can serve
 * calls of different roles. CALL_SCHEMAS' type requires one on every entry, so a call added without
 * a role does not compile; the HTTP transport enforces it (the desktop's own engine needs none).
 */
function needs<R extends Role, S extends z.ZodType>(role: R, schema: S): S & { readonly role: R } {
  if (!ROLES.includes(role)) throw new Error(`unknown role ${role}`);
  return Object.assign(schema.clone(), { role }) as S & { readonly role: R };
}

/** The schema of every call's input. The service parses with these; transports never trust input. */
export const CALL_SCHEMAS = {
  /** Everything the dashboard shows at start (and after a reconnect). */
  snapshot: needs('viewer', empty),
  status: needs('viewer', empty),
  listApps: needs(
    'viewer',
    z
      .object({
        search: z.string().max(200).optional(),
        state: z.enum(REAPER_STATES).optional(),
        ownerId: ownerId.optional(),
        errorsOnly: flag.optional(),
      })
      .strict(),
  ),
  getApp: needs('viewer', z.object({ appId }).strict()),
  /** The history of an app, newest first (also of an app released since: its history stays). */
  history: needs(
    'viewer',
    z
      .object({ appId, limit: int(1, 5000).default(500), since: int(0, Number.MAX_SAFE_INTEGER).optional() })
      .strict(),
  ),
  /** Back to Initializing: the state is read again from Clever Cloud. */
  reset: needs('operator', z.object({ appId }).strict()),
  /** An explicit wake; with `wait`, answers once the app is Up (or in Error, or after `timeoutMs`). */
  wake: needs(
    'operator',
    z
      .object({
        appId,
        source: z.enum(EXPLICIT_SOURCES).default('admin-api'),
        wait: flag.default(false),
        /** Engine time to wait at most; default: the fail timeout and a minute. */
        timeoutMs: int(1000, 7 * DAY).optional(),
      })
      .strict(),
  ),
  /** "Keep awake until ...": no sleep before `until`; null cancels. A sleeping app is woken. */
  keepAwake: needs(
    'operator',
    z
      .object({ appId, until: instant.nullable(), source: z.enum(EXPLICIT_SOURCES).default('admin-api') })
      .strict(),
  ),
  /** "Disable the reaper": every route of the app is disabled and the app released at once. */
  release: needs('admin', z.object({ appId }).strict()),
  /** One of the four actions above on many apps, one outcome per app (see bulk.ts). */
  bulk: needs('operator', bulkInputSchema),
  listRoutes: needs('viewer', z.object({ appId: appId.optional() }).strict()),
  getRoute: needs('viewer', z.object({ routeId }).strict()),
  createRoute: needs('admin', routeCreateSchema),
  /** `changes` are reported by their own names (gracePeriodMs, not changes.gracePeriodMs). */
  updateRoute: needs('admin', z.object({ routeId, changes: routeUpdateSchema }).strict()),
  deleteRoute: needs('admin', z.object({ routeId }).strict()),
  /** The rules, in their order of precedence (the first that matches an app takes it). */
  listRules: needs('viewer', empty),
  getRule: needs('viewer', z.object({ ruleId }).strict()),
  /** A new rule; `position` puts it at that index of the list (default: at the end). */
  createRule: needs('admin', ruleCreateSchema),
  /** `changes` are reported by their own names; `position` moves the rule in the list. */
  updateRule: needs('admin', z.object({ ruleId, changes: ruleUpdateSchema }).strict()),
  deleteRule: needs('admin', z.object({ ruleId }).strict()),
  /**
   * What a rule (new, or `ruleId` changed) would match now, before saving: per app, managed, taken
   * from another rule, or left to a rule that comes first or to the route that names it.
   */
  previewRule: needs('viewer', rulePreviewSchema),
  getSettings: needs('viewer', empty),
  updateSettings: needs('admin', settingsUpdateSchema),
  /** The personal space and the organisations of the account, for the route editor's app picker. */
  listOwners: needs('viewer', empty),
  /** The Clever Cloud apps of an owner, managed or not. */
  listOwnerApps: needs('viewer', z.object({ ownerId }).strict()),
  credentials: needs('viewer', empty),
  connect: needs('admin', connectInputSchema),
  /** Run the embedded simulator's demo instead of a Clever Cloud account. */
  startDemo: needs('admin', empty),
  /**
   * The history across apps (released ones too), newest first, filtered, a page at a time. Its CSV
   * and JSON exports are streamed by the transports (GET /api/history?format=csv).
   */
  historyQuery: needs('viewer', historyQuerySchema),
  /** The next must-be-up transitions of a route (up at a range start, down at its end). */
  routeTransitions: needs('viewer', z.object({ routeId, count: int(1, 50).default(6) }).strict()),
  /** The same for ranges not saved yet (the route editor's preview, or a script's). */
  previewRanges: needs(
    'viewer',
    z.object({ ranges: z.array(rangeSchema).max(50), count: int(1, 50).default(6) }).strict(),
  ),
  /**
   * Hours asleep because of the reaper and money saved (today, this month, this year and all time in
   * the zone), the saving per hour now, the hours stopped outside the reaper apart, per app and in
   * total, dry-run projections.
   */
  savings: needs(
    'viewer',
    z
      .object({
        /** The IANA zone today, the month, the year and the days are counted in (default: the engine's). */
        timeZone: z.string().max(100).refine(isValidTimeZone, says('timeZone')).optional(),
      })
      .strict(),
  ),
  /** How deliveries to each webhook went since the reaper started. */
  webhookStatus: needs('viewer', empty),
  /** Send a test payload to a webhook at once (one attempt), saved in the settings or not. */
  testWebhook: needs(
    'admin',
    webhookSchema.extend({ events: z.array(z.enum(WEBHOOK_EVENTS)).default(['error']) }).strict(),
  ),
} as const satisfies Record<string, z.ZodType & { readonly role: Role }>;

export type CallName = keyof typeof CALL_SCHEMAS;
export const CALL_NAMES = Object.keys(CALL_SCHEMAS) as CallName[];
/**
 * The role a call needs with this input: the call's own, except a bulk "Disable the reaper", which
 * releases apps as `release` does (admin).
 */
export function neededRole(name: CallName, raw: unknown): Role {
  if (name === 'bulk' && (raw as { action?: unknown } | null)?.action === 'release') return 'admin';
  return CALL_SCHEMAS[name].role;
}
/** What a caller sends (defaults may be left out). */
export type CallInput<K extends CallName> = z.input<(typeof CALL_SCHEMAS)[K]>;
/** What the service receives once parsed. */
export type ParsedInput<K extends CallName> = z.output<(typeof CALL_SCHEMAS)[K]>;

// ---- outputs ---------------------------------------------------------------------------------------

export type SessionMode = 'demo' | 'account' | 'disconnected';

/** What is known about the Clever Cloud credentials. Never a token or a secret. */
export interface CredentialsStatus {
  state: 'connected' | 'none' | 'invalid';
  /** Where the credentials in use come from. */
  source: 'environment' | 'clever-tools' | 'pasted' | null;
  /** Who they belong to, to show (a name or an email), when known. */
  account: string | null;
  /** Credentials found on this machine that Connect can use. */
  found: { environment: boolean; cleverTools: boolean };
  /** Where they are kept (e.g. "a file only its owner can read", "the OS keychain"). */
  storage: string | null;
  /** What went wrong with them, in words. */
  problem: string | null;
  /** Connecting an account is possible from this shell (false in a server started with --demo). */
  canConnect: boolean;
  /**
   * True while the credentials in use are kept but Clever Cloud could not check them yet (it could not
   * be reached when they were opened): the dashboard warns instead of showing them as good.
   */
  unchecked?: boolean;
}

/** No credentials, nothing found, nothing wrong: where a session starts. */
export const NO_CREDENTIALS: CredentialsStatus = {
  state: 'none',
  source: null,
  account: null,
  found: { environment: false, cleverTools: false },
  storage: null,
  problem: null,
  canConnect: false,
};

export interface ReaperStatus {
  /** The engine's clock now; the dashboard counts from it (it runs `timeScale` times faster). */
  now: number;
  timeScale: number;
  mode: SessionMode;
  /** The demo scenario running, in demo mode. */
  scenario: string | null;
  credentials: CredentialsStatus;
  version: string;
  /** The wake proxy: where it listens while a route has host names. */
  wakeProxy: { url: string | null };
  /** What the operator must know now: an unwritable datastore, a wake proxy that cannot listen... */
  problems: string[];
}

export interface Snapshot {
  /** The sequence number of the last event the snapshot includes: later events have a larger one. */
  seq: number;
  status: ReaperStatus;
  apps: AppView[];
  routes: Route[];
  rules: Rule[];
  settings: Settings;
}

export interface AppDetail {
  app: AppView;
  /** Every route of the app, enabled or not. */
  routes: Route[];
  /** The union of the must-be-up ranges of its enabled routes. */
  ranges: MustBeUpRange[];
  /** The next must-be-up transitions (up at a range start, down at its end). */
  nextTransitions: ScheduleTransition[];
  /** What the traffic sources saw of the app since the engine started. */
  traffic: AppTrafficView;
  /** How long its last starts and stops took (median and worst of the last 20). */
  durations: TransitionDurations;
  /** What can wake it (wake proxy, access logs, must-be-up ranges, manual), and the access-log wakes seen. */
  wakeSources: WakeSources;
  /** The group the app sleeps and wakes with, and how its members are; null when none. */
  group: AppGroupView | null;
}

/** A group as the details panel shows it. */
export interface AppGroupView {
  name: string;
  /** Every member, the app included, by name. */
  members: { appId: string; name: string; state: ReaperState; label: string }[];
  /** Why the group holds this app awake now ("waiting for group member X (...)"); null when not. */
  waitingFor: string | null;
  /** Members in Error, which do not hold the others awake. */
  notes: string[];
}

export interface AppTrafficView {
  /** Requests counted as traffic, per source. */
  counted: number;
  bySource: Partial<Record<TrafficSource, number>>;
  /** Requests the route's filters ignored, per reason ("path /health", "source 10.0.0.0/8"). */
  ignored: Record<string, number>;
  lastIgnoredAt: number | null;
  /** The app's access-log stream: open or not, and the events it delivered. */
  accessLog: { connected: boolean; events: number } | null;
  /**
   * Connections open through the wake proxy now (WebSockets, streams, requests in flight), and how
   * many of them keep the app awake.
   */
  connections: { open: number; inUse: number };
}

export interface Owner {
  id: string;
  name: string;
}

/** A Clever Cloud app in the route editor's picker. */
export interface PickableApp {
  id: string;
  name: string;
  ownerId: string;
  cleverState: string;
  /** Ids of the routes (enabled or not) that point at it. */
  routeIds: string[];
}

/** The rule editor's preview, and what it was computed on. */
export interface RulePreviewResult extends RulePreview {
  /** Owners whose application list could not be read (their apps are not in the preview). */
  unreadOwners: string[];
}

export interface CallOutputs {
  snapshot: Snapshot;
  status: ReaperStatus;
  listApps: AppView[];
  getApp: AppDetail;
  history: HistoryEntry[];
  reset: AppView;
  wake: AppView;
  keepAwake: AppView;
  /** `handedOver`: kept by this instance while the datastore is away, released once it is back. */
  release: { appId: string; disabledRoutes: Route[]; handedOver: string | null };
  bulk: BulkResult;
  listRoutes: Route[];
  getRoute: Route;
  createRoute: Route;
  updateRoute: Route;
  deleteRoute: { deleted: string };
  listRules: Rule[];
  getRule: Rule;
  createRule: Rule;
  updateRule: Rule;
  deleteRule: { deleted: string };
  previewRule: RulePreviewResult;
  getSettings: Settings;
  updateSettings: Settings;
  listOwners: Owner[];
  listOwnerApps: PickableApp[];
  credentials: CredentialsStatus;
  connect: ReaperStatus;
  startDemo: ReaperStatus;
  historyQuery: HistoryPage;
  routeTransitions: ScheduleTransition[];
  previewRanges: ScheduleTransition[];
  savings: SavingsReport;
  webhookStatus: WebhookStatus[];
  testWebhook: WebhookTestResult;
}
export type CallOutput<K extends CallName> = CallOutputs[K];

// ---- pushed events ---------------------------------------------------------------------------------

export type ReaperEvent =
  /** An app changed (state, clocks, traffic, notice). */
  | { type: 'app'; app: AppView }
  /** An app was released: no route manages it any more. Its history stays. */
  | { type: 'removed'; appId: string }
  | { type: 'history'; entry: HistoryEntry }
  /** An app entered Error. */
  | { type: 'alert'; appId: string; name: string; cause: string }
  | { type: 'routes'; routes: Route[] }
  /** The rules changed (in their order of precedence). */
  | { type: 'rules'; rules: Rule[] }
  | { type: 'settings'; settings: Settings }
  /** Every app, recomputed (after a change of routes or settings, or once owners are known). */
  | { type: 'apps'; apps: AppView[] }
  /** The session changed (demo started, account connected): fetch the snapshot again. */
  | { type: 'session'; status: ReaperStatus }
  /** The status changed within the session (a problem appeared or went away, the wake proxy moved). */
  | { type: 'status'; status: ReaperStatus }
  | { type: 'owner-unreachable'; ownerId: string; message: string }
  /** A heartbeat with the engine's clock. */
  | { type: 'clock'; now: number; timeScale: number }
  /** The desktop shell asks the dashboard to show an app (a notification or a link was clicked). */
  | { type: 'show-app'; appId: string }
  /**
   * The desktop shell asks the dashboard to go to a place (a `clever-reaper://open/...` link): a
   * route of the URL fragment, `#/apps?state=Error` (see nav-route.ts).
   */
  | { type: 'navigate'; route: string };

/**
 * Hears an event with its sequence number (increasing by one per event of the service). With the
 * snapshot's `seq`, a caller knows which events the snapshot already includes.
 */
export type ReaperListener = (event: ReaperEvent, seq: number) => void;

// ---- the API as a caller sees it -------------------------------------------------------------------

/** A call whose input has no required field can be made without one. */
type Args<I> = Record<string, never> extends I ? [input?: I] : [input: I];

export type ReaperCalls = {
  [K in CallName]: (...args: Args<CallInput<K>>) => Promise<CallOutput<K>>;
};

/** What `window.reaper` (IPC) and the HTTP client both are. */
export interface ReaperApi extends ReaperCalls {
  /** Hear the engine's events; returns the function that stops listening. */
  subscribe(listener: ReaperListener): () => void;
}

/** Build a ReaperApi from one generic invoke (how both transports' clients are made). */
export function apiFromInvoke(
  invoke: (name: CallName, input: unknown) => Promise<unknown>,
  subscribe: ReaperApi['subscribe'],
): ReaperApi {
  const calls = Object.fromEntries(
    CALL_NAMES.map((name) => [name, (input?: unknown) => invoke(name, input ?? {})]),
  ) as unknown as ReaperCalls;
  return { ...calls, subscribe };
}
