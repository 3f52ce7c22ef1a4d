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
 * - metrics-dashboard: its stops never complete (Error after the fail timeout).
 */
import { MINUTE, SECOND } from '../../shared/durations.ts';
import type { RouteCreate } from '../../shared/routes.ts';
import type { SettingsUpdate } from '../../shared/settings.ts';
import type { Clock } from '../engine/ports.ts';
import { SimulatedCloud } from './model.ts';

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
}

export const DEMO_SETTINGS: SettingsUpdate = {
  failTimeoutMs: 4 * MINUTE,
  releaseDelayMs: MINUTE,
};

export function buildDemoScenario(clock: Clock): DemoScenario {
  const cloud = new SimulatedCloud(clock, {
    deployDurationMs: 40 * SECOND,
    stopDurationMs: 6 * SECOND,
    failAfterMs: 25 * SECOND,
  });
  const acme = cloud.addOrganisation('Acme Staging');
  const me = cloud.user.id;
  const apps: DemoApp[] = [];
  const add = (
    ownerId: string,
    name: string,
    simOptions: Parameters<SimulatedCloud['addApp']>[2],
    route: Partial<RouteCreate> = {},
  ) => {
    const app = cloud.addApp(ownerId, name, simOptions);
    apps.push({
      appId: app.id,
      ownerId,
      route: { appId: app.id, ownerId, gracePeriodMs: 2 * MINUTE, ...route },
    });
    return app;
  };

  const shop = add(
    acme.id,
    'shop-staging',
    {},
    { gracePeriodMs: 5 * MINUTE, hosts: ['shop.staging.localhost'] },
  );
  add(acme.id, 'blog-review-42', {});
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
  add(
    me,
    'docs-preview',
    {},
    {
      gracePeriodMs: 3 * MINUTE,
      ranges: [{ days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'Europe/Paris' }],
    },
  );
  const metrics = add(acme.id, 'metrics-dashboard', {}, { gracePeriodMs: MINUTE });
  cloud.setStopNeverCompletes(metrics.id);

  const startTraffic = (onRequest?: (appId: string, at: number) => void) =>
    trafficLoop(cloud, clock, onRequest, (every) => {
      every(20 * SECOND, () => cloud.recordRequest(shop.id, { path: '/cart' }), SECOND);
      every(4 * MINUTE, () => cloud.recordRequest(sandbox.id, { path: '/v1/items' }), 45 * SECOND);
      every(3 * MINUTE, () => cloud.recordRequest(billing.id, { path: '/invoices' }), 3 * MINUTE);
      every(5 * MINUTE, () => cloud.recordRequest(legacy.id, { path: '/' }), 90 * SECOND);
    });

  return { cloud, apps, settings: DEMO_SETTINGS, startTraffic };
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
