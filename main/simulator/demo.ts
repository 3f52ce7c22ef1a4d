/**
 * The demo scenario: a handful of apps across two owners, with traffic, so that a newcomer sees
 * every console state within a few minutes without a Clever Cloud account.
 *
 * - shop-staging: steady traffic, stays Up;
 * - blog-review-42: idle, goes to sleep after its 2-minute grace period;
 * - api-sandbox: asleep, asked for by a request every few minutes, so it wakes up;
 * - billing-preview: idle; when it is woken its deployment fails (Error, with the cause);
 * - legacy-admin: never deployed; asleep, a request asks for it (Error, 4014);
 * - partner-portal: MODERATED on Clever Cloud (Error, unexpected state);
 * - docs-preview: must be up on weekdays during office hours (Paris time);
 * - metrics-dashboard: its stops never complete (Error after the fail timeout);
 * - internal-wiki, marketing-site, status-page: on Clever Cloud, under no route, so that "Your
 *   first route" can be followed (the route editor's app picker offers them).
 *
 * Every app answers on its domains as the simulator's app front does (a WebSocket echo, `/events` as
 * server-sent events, `/download`, `/upload`), and the front says "not routed yet" for 4 s after an
 * app came up, as Clever Cloud's can: through the wake proxy (shop.staging.localhost,
 * api.sandbox.localhost) the first request after a wake waits for the app itself.
 *
 * It starts with 30 days of simulated history for four apps (awake on weekday office hours, asleep at
 * night and on weekends; docs-preview's first week in dry-run), so the History and Savings views have
 * something to show at once.
 */
import type { HistoryEntry } from '../../shared/domain.ts';
import { DAY, HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import type { RouteCreate } from '../../shared/routes.ts';
import type { SettingsUpdate } from '../../shared/settings.ts';
import type { Clock } from '../engine/ports.ts';
import { FLAVORS, SimulatedCloud } from './model.ts';

export interface DemoApp {
  appId: string;
  ownerId: string;
  route: RouteCreate;
}

export interface DemoScenario {
  cloud: SimulatedCloud;
  apps: DemoApp[];
  /** Settings that make the demo move within minutes. */
  settings: SettingsUpdate;
  /**
   * Start the demo's traffic: requests written to the simulated access logs (the access-log
   * follower reads them like Clever Cloud's). `onRequest`, when given, also hears each of them
   * (in-process tests without the follower). Returns the function that stops it.
   */
  startTraffic(onRequest?: (appId: string, at: number) => void): () => void;
  /** History from before the demo started, written into its datastore first. */
  pastHistory?: (now: number) => HistoryEntry[];
}

export const DEMO_SETTINGS: SettingsUpdate = {
  failTimeoutMs: 4 * MINUTE,
  releaseDelayMs: MINUTE,
};

/**
 * A scenario's list of apps and the function that adds one to the simulated cloud and puts it under
 * a route (grace period `gracePeriodMs` unless the route says otherwise).
 */
export function appAdder(cloud: SimulatedCloud, gracePeriodMs: number) {
  const apps: DemoApp[] = [];
  const add = (
    ownerId: string,
    name: string,
    simOptions: Parameters<SimulatedCloud['addApp']>[2],
    route: Partial<RouteCreate> = {},
  ) => {
    const app = cloud.addApp(ownerId, name, simOptions);
    apps.push({ appId: app.id, ownerId, route: { appId: app.id, ownerId, gracePeriodMs, ...route } });
    return app;
  };
  return { apps, add };
}

/** The demo's apps left for the operator to put under the reaper (asleep on Clever Cloud or not). */
export const UNROUTED_DEMO_APPS = ['internal-wiki', 'marketing-site', 'status-page'] as const;

export function buildDemoScenario(clock: Clock): DemoScenario {
  const cloud = new SimulatedCloud(clock, {
    deployDurationMs: 40 * SECOND,
    stopDurationMs: 6 * SECOND,
    failAfterMs: 25 * SECOND,
    // As Clever Cloud's front can: a few seconds of "not routed yet" after an app came up (its 404
    // with X-CleverCloudUpgrade, then a 503, in turn), so the wake proxy's ready gate is seen at work.
    frontWarmupMs: 4 * SECOND,
    frontWarmupAnswer: 'alternate',
  });
  const acme = cloud.addOrganisation('Acme Staging');
  const me = cloud.user.id;
  const { apps, add } = appAdder(cloud, 2 * MINUTE);

  const shop = add(
    acme.id,
    'shop-staging',
    { flavor: { ...FLAVORS.M }, instances: 2 },
    { gracePeriodMs: 5 * MINUTE, hosts: ['shop.staging.localhost'] },
  );
  const blog = add(acme.id, 'blog-review-42', { flavor: { ...FLAVORS.S } });
  const sandbox = add(
    acme.id,
    'api-sandbox',
    { state: 'SHOULD_BE_DOWN' },
    { hosts: ['api.sandbox.localhost'] },
  );
  const billing = add(acme.id, 'billing-preview', {}, { gracePeriodMs: MINUTE });
  cloud.injectOutcomes(billing.id, 'fail');
  const legacy = add(me, 'legacy-admin', { neverDeployed: true });
  add(me, 'partner-portal', { state: 'MODERATED' });
  const docs = add(
    me,
    'docs-preview',
    { flavor: { ...FLAVORS.nano } },
    {
      gracePeriodMs: 3 * MINUTE,
      ranges: [{ days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'Europe/Paris' }],
    },
  );
  const metrics = add(acme.id, 'metrics-dashboard', {}, { gracePeriodMs: MINUTE });
  cloud.setStopNeverCompletes(metrics.id);
  // On Clever Cloud but under no route: "Your first route" has apps to pick in the route editor.
  for (const name of UNROUTED_DEMO_APPS) cloud.addApp(acme.id, name, { flavor: { ...FLAVORS.S } });

  const startTraffic = (onRequest?: (appId: string, at: number) => void) =>
    trafficLoop(cloud, clock, onRequest, (every) => {
      every(20 * SECOND, () => cloud.recordRequest(shop.id, { path: '/cart' }), SECOND);
      every(4 * MINUTE, () => cloud.recordRequest(sandbox.id, { path: '/v1/items' }), 45 * SECOND);
      every(3 * MINUTE, () => cloud.recordRequest(billing.id, { path: '/invoices' }), 3 * MINUTE);
      every(5 * MINUTE, () => cloud.recordRequest(legacy.id, { path: '/' }), 90 * SECOND);
    });

  const pastHistory = (now: number) =>
    [shop, blog, sandbox, docs].flatMap((app, n) =>
      // docs-preview spent its first week in dry-run, before the reaper put it to sleep for real.
      officeHoursHistory(app.id, now, 30, n + 1, app === docs ? 7 : 0),
    );

  return { cloud, apps, settings: DEMO_SETTINGS, startTraffic, pastHistory };
}

/**
 * `days` days of an app under the reaper before `now`: woken by a request on weekday mornings, put to
 * sleep in the evening after its grace period, asleep on weekends; times vary a little from day to day.
 * With `dryRunDays`, its first days were in dry-run: it stayed up, and the history has the sleeps the
 * reaper would have done and the requests that would have woken it.
 */
export function officeHoursHistory(
  appId: string,
  now: number,
  days: number,
  seed: number,
  dryRunDays = 0,
): HistoryEntry[] {
  let state = seed * 7919;
  const jitter = (maxMs: number) => {
    state = (state * 48271) % 2147483647;
    return Math.floor((state / 2147483647) * maxMs);
  };
  const out: HistoryEntry[] = [];
  const add = (
    at: number,
    kind: HistoryEntry['kind'],
    from: HistoryEntry['from'],
    to: HistoryEntry['to'],
    actor: HistoryEntry['actor'],
    reason: string,
  ) => out.push({ appId, at, kind, from, to, actor, reason });
  const firstDay = Math.floor((now - days * DAY) / DAY) * DAY;
  const idleReason = 'no traffic for 2 min (grace period 2 min), last deployment OK';
  add(firstDay, 'transition', null, 'WaitingForInit', 'operator', 'put under the reaper by a route');
  let asleep = dryRunDays === 0;
  let wouldSleep = false;
  add(
    firstDay + 5 * SECOND,
    'transition',
    'WaitingForInit',
    asleep ? 'Down' : 'Up',
    'reaper',
    `Clever Cloud says ${asleep ? 'SHOULD_BE_DOWN' : 'SHOULD_BE_UP'}`,
  );
  for (let day = firstDay; day < now - DAY; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const wake = day + 7 * HOUR + jitter(2 * HOUR);
    const up = wake + 40 * SECOND + jitter(30 * SECOND);
    const idle = day + 16 * HOUR + jitter(3 * HOUR);
    const stopped = idle + 5 * SECOND + jitter(5 * SECOND);
    if (wouldSleep) {
      add(
        wake,
        'would-wake',
        null,
        null,
        'request',
        'dry-run: a request (access-log) would have woken the app',
      );
      wouldSleep = false;
    }
    if (day < firstDay + dryRunDays * DAY) {
      add(idle, 'would-sleep', null, null, 'reaper', `dry-run: would stop the app; ${idleReason}`);
      wouldSleep = true;
      continue;
    }
    if (asleep) {
      add(wake, 'transition', 'Down', 'WaitingForUp', 'request', 'asked for by access-log');
      add(wake + 300, 'start-asked', null, null, 'request', 'Clever Cloud accepted the start');
      add(up, 'transition', 'WaitingForUp', 'Up', 'reaper', 'Clever Cloud says SHOULD_BE_UP, deployment OK');
    }
    add(idle, 'transition', 'Up', 'WaitingForShutdown', 'reaper', idleReason);
    add(idle + 300, 'stop-asked', null, null, 'reaper', 'Clever Cloud accepted the stop (DELETE instances)');
    add(stopped, 'transition', 'WaitingForShutdown', 'Down', 'reaper', 'Clever Cloud says SHOULD_BE_DOWN');
    asleep = true;
  }
  return out;
}

/** A traffic loop on the scenario's clock; returns the function that stops it. */
export function trafficLoop(
  cloud: SimulatedCloud,
  clock: Clock,
  onRequest: ((appId: string, at: number) => void) | undefined,
  schedule: (every: (ms: number, fn: () => void, firstAfter?: number) => void) => void,
): () => void {
  const off = onRequest ? cloud.onAccessLog((entry) => onRequest(entry.appId, entry.date)) : () => {};
  let stopped = false;
  const timers: ReturnType<Clock['setTimeout']>[] = [];
  schedule((ms, fn, firstAfter = ms) => {
    const run = () => {
      if (stopped) return;
      fn();
      timers.push(clock.setTimeout(run, ms));
    };
    timers.push(clock.setTimeout(run, firstAfter));
  });
  return () => {
    stopped = true;
    off();
    for (const t of timers) clock.clearTimeout(t);
  };
}
