/**
 * The front door: how the wake proxy answers each caller of a route, per route. Pure (the route
 * editor shows the same list and defaults).
 *
 * - `callers`: a caller that is not a browser, while the app sleeps: `hold` (held until the app
 *   answers, then proxied) or `unavailable` (a JSON 503 with Retry-After at once; the wake is asked
 *   all the same).
 * - `ignoredAnswer`: a request the route's filters ignore (a health check, a monitor), or one from a
 *   quiet user agent, while the app sleeps: `unavailable` (503, as before) or `status` (200 with a
 *   small JSON status body, so an uptime check reports the route as fine while it sleeps).
 * - `readyDelayMs`: after a wake, how long Clever Cloud's 502/503/504 still mean "not routed yet"
 *   rather than the app's own answer (a 404 with `X-CleverCloudUpgrade` always means it).
 * - `quietAgents`: the built-in list of user agents that never wake an app (link previewers, uptime
 *   monitors, search crawlers), on by default; `wake` names the entries that may wake this app.
 */

export const CALLER_MODES = ['hold', 'unavailable'] as const;
export const IGNORED_ANSWERS = ['unavailable', 'status'] as const;
export type CallerMode = (typeof CALLER_MODES)[number];
export type IgnoredAnswer = (typeof IGNORED_ANSWERS)[number];

export const DEFAULT_READY_DELAY_MS = 5000;
export const MAX_READY_DELAY_MS = 10 * 60_000;

export interface QuietAgents {
  /** The built-in list applies. */
  builtIn: boolean;
  /** Names of built-in entries that do wake this route's app. */
  wake: string[];
}

/** The front-door settings of a route, every one filled in. */
export interface FrontDoor {
  readyDelayMs: number;
  callers: CallerMode;
  ignoredAnswer: IgnoredAnswer;
  quietAgents: QuietAgents;
}

export const DEFAULT_FRONT_DOOR: FrontDoor = {
  readyDelayMs: DEFAULT_READY_DELAY_MS,
  callers: 'hold',
  ignoredAnswer: 'unavailable',
  quietAgents: { builtIn: true, wake: [] },
};

/** The front-door fields as a route may carry them (older routes carry none). */
export interface FrontDoorFields {
  readyDelayMs?: number;
  callers?: CallerMode;
  ignoredAnswer?: IgnoredAnswer;
  quietAgents?: QuietAgents;
}

export function frontDoorOf(route: FrontDoorFields | undefined): FrontDoor {
  if (!route) return DEFAULT_FRONT_DOOR;
  return {
    readyDelayMs: route.readyDelayMs ?? DEFAULT_READY_DELAY_MS,
    callers: route.callers ?? 'hold',
    ignoredAnswer: route.ignoredAnswer ?? 'unavailable',
    quietAgents: route.quietAgents ?? DEFAULT_FRONT_DOOR.quietAgents,
  };
}

export type QuietKind = 'link preview' | 'uptime monitor' | 'search crawler';

/** One built-in entry: its name, what it is, and the User-Agent token that identifies it. */
export interface QuietAgent {
  name: string;
  kind: QuietKind;
  /** Matched case-insensitively as a substring of the User-Agent header. */
  token: string;
}

/**
 * User agents that never wake an app: a preview or a check of a sleeping app must not start it. The
 * tokens are those each service documents (or sends) in its User-Agent.
 */
export const QUIET_AGENTS: readonly QuietAgent[] = [
  { name: 'Slackbot', kind: 'link preview', token: 'slackbot' },
  { name: 'facebookexternalhit', kind: 'link preview', token: 'facebookexternalhit' },
  { name: 'Twitterbot', kind: 'link preview', token: 'twitterbot' },
  { name: 'LinkedInBot', kind: 'link preview', token: 'linkedinbot' },
  { name: 'Discordbot', kind: 'link preview', token: 'discordbot' },
  { name: 'TelegramBot', kind: 'link preview', token: 'telegrambot' },
  { name: 'WhatsApp', kind: 'link preview', token: 'whatsapp' },
  { name: 'Mattermost', kind: 'link preview', token: 'mattermost' },
  { name: 'Microsoft Teams', kind: 'link preview', token: 'skypeuripreview' },
  { name: 'UptimeRobot', kind: 'uptime monitor', token: 'uptimerobot' },
  { name: 'Pingdom', kind: 'uptime monitor', token: 'pingdom' },
  { name: 'StatusCake', kind: 'uptime monitor', token: 'statuscake' },
  { name: 'Better Stack', kind: 'uptime monitor', token: 'better uptime bot' },
  { name: 'Site24x7', kind: 'uptime monitor', token: 'site24x7' },
  { name: 'Datadog Synthetics', kind: 'uptime monitor', token: 'datadog' },
  { name: 'Googlebot', kind: 'search crawler', token: 'googlebot' },
  { name: 'bingbot', kind: 'search crawler', token: 'bingbot' },
  { name: 'DuckDuckBot', kind: 'search crawler', token: 'duckduckbot' },
  { name: 'YandexBot', kind: 'search crawler', token: 'yandexbot' },
  { name: 'Baiduspider', kind: 'search crawler', token: 'baiduspider' },
  { name: 'Applebot', kind: 'search crawler', token: 'applebot' },
];

export const QUIET_AGENT_NAMES: readonly string[] = QUIET_AGENTS.map((a) => a.name);

/** The built-in entry a User-Agent matches, when the route lets that entry keep quiet; else null. */
export function quietAgentOf(userAgent: string | undefined, quiet: QuietAgents): QuietAgent | null {
  if (!quiet.builtIn || !userAgent) return null;
  const ua = userAgent.toLowerCase();
  for (const agent of QUIET_AGENTS) {
    if (ua.includes(agent.token) && !quiet.wake.includes(agent.name)) return agent;
  }
  return null;
}
