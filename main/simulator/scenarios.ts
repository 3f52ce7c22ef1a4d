/**
 * The scenarios the embedded simulator can run (`serve --demo --scenario NAME`):
 *
 * - `demo`: the newcomer's tour (see demo.ts);
 * - `e2e`: a few apps, one per end-to-end story, with short durations and no traffic that could
 *   get in a test's way (only shop-staging has traffic);
 * - `fleet`: a thousand apps across five owners, for the dashboard at scale.
 */
import { MINUTE, SECOND } from '../../shared/durations.ts';
import type { Clock } from '../engine/ports.ts';
import { appAdder, buildDemoScenario, type DemoScenario, trafficLoop } from './demo.ts';
import { FLAVORS, SimulatedCloud } from './model.ts';

export const SCENARIOS = {
  demo: buildDemoScenario,
  e2e: buildE2eScenario,
  fleet: (clock: Clock) => buildFleetScenario(clock, 1000),
} satisfies Record<string, (clock: Clock) => DemoScenario>;

export type ScenarioName = keyof typeof SCENARIOS;

export function isScenarioName(name: string): name is ScenarioName {
  return Object.hasOwn(SCENARIOS, name);
}

/**
 * One app per end-to-end story. Grace periods are long except where a test waits for a sleep, so a
 * slow machine never sees an app fall asleep under a test that did not ask for it.
 *
 * - idle-review: Up, no traffic, grace period 3 min: goes to sleep;
 * - shop-staging: Up, traffic every 20 s: stays Up;
 * - api-sandbox: asleep: woken from the dashboard;
 * - billing-preview: asleep, its next deployment fails: woken, Error, reset;
 * - old-reports: asleep: its route is disabled, it is released (started, then forgotten);
 * - preview-site: asleep, behind the wake proxy as preview.localhost: a browser wakes it;
 * - nightly-batch, qa-env: Up, grace period 2 h: the kill switch story shortens it;
 * - docs-preview: must be up on weekdays, office hours in Paris;
 * - partner-portal: MODERATED on Clever Cloud (Error);
 * - internal-wiki: on Clever Cloud, not under the reaper: the route editor's app picker finds it.
 */
export function buildE2eScenario(clock: Clock): DemoScenario {
  const cloud = new SimulatedCloud(clock, {
    deployDurationMs: 20 * SECOND,
    stopDurationMs: 4 * SECOND,
    failAfterMs: 10 * SECOND,
    listingDelayMs: 2 * SECOND,
  });
  const acme = cloud.addOrganisation('Acme Staging');
  const me = cloud.user.id;
  const { apps, add } = appAdder(cloud, 2 * 60 * MINUTE);

  add(acme.id, 'idle-review', {}, { gracePeriodMs: 3 * MINUTE });
  const shop = add(
    acme.id,
    'shop-staging',
    {},
    { gracePeriodMs: 5 * MINUTE, hosts: ['shop.staging.localhost'] },
  );
  add(acme.id, 'api-sandbox', { state: 'SHOULD_BE_DOWN', flavor: { ...FLAVORS.S }, instances: 2 });
  const billing = add(acme.id, 'billing-preview', { state: 'SHOULD_BE_DOWN' });
  cloud.injectOutcomes(billing.id, 'fail');
  add(
    acme.id,
    'old-reports',
    { state: 'SHOULD_BE_DOWN', flavor: { ...FLAVORS.nano } },
    { label: 'old reports (to retire)' },
  );
  add(acme.id, 'preview-site', { state: 'SHOULD_BE_DOWN' }, { hosts: ['preview.localhost'] });
  add(acme.id, 'nightly-batch', {});
  add(acme.id, 'qa-env', {});
  add(
    me,
    'docs-preview',
    {},
    { ranges: [{ days: 'Mon-Fri', start: '09:00', end: '18:00', timeZone: 'Europe/Paris' }] },
  );
  add(me, 'partner-portal', { state: 'MODERATED' });
  cloud.addApp(acme.id, 'internal-wiki', {});

  return {
    cloud,
    apps,
    settings: { failTimeoutMs: 2 * MINUTE, releaseDelayMs: MINUTE },
    startTraffic: (onRequest) =>
      trafficLoop(cloud, clock, onRequest, (every) => {
        every(20 * SECOND, () => cloud.recordRequest(shop.id, { path: '/cart' }), SECOND);
      }),
  };
}

/** `count` apps across five owners, in every state, with traffic on some of them. */
export function buildFleetScenario(clock: Clock, count: number): DemoScenario {
  const cloud = new SimulatedCloud(clock, {
    deployDurationMs: 40 * SECOND,
    stopDurationMs: 6 * SECOND,
    failAfterMs: 25 * SECOND,
  });
  const owners = [
    cloud.user.id,
    ...['Acme Staging', 'Acme Review Apps', 'Globex QA', 'Initech Demos'].map(
      (n) => cloud.addOrganisation(n).id,
    ),
  ];
  const { apps, add } = appAdder(cloud, 2 * MINUTE);
  const busy: string[] = [];
  const askers: string[] = [];
  const kinds = ['web', 'api', 'worker', 'admin', 'docs', 'review', 'preview', 'staging'];
  for (let i = 0; i < count; i++) {
    const ownerId = owners[i % owners.length]!;
    const name = `${kinds[i % kinds.length]}-${String(i).padStart(4, '0')}`;
    // One app in twenty of each kind: asleep (0-5, 17, 18), busy (8-11), failing its next start (17),
    // never deployed (18), moderated (19); the others are idle and fall asleep after their grace period.
    const roll = i % 20;
    const down = roll < 6 || roll === 17 || roll === 18;
    const app = add(
      ownerId,
      name,
      {
        state: roll === 19 ? 'MODERATED' : down ? 'SHOULD_BE_DOWN' : 'SHOULD_BE_UP',
        ...(roll === 18 ? { neverDeployed: true } : {}),
      },
      { gracePeriodMs: (2 + (i % 5) * 3) * MINUTE },
    );
    if (roll === 17) cloud.injectOutcomes(app.id, 'fail');
    if (roll >= 8 && roll < 12) busy.push(app.id);
    if (roll === 0 || roll === 17 || roll === 18) askers.push(app.id);
  }
  return {
    cloud,
    apps,
    settings: { failTimeoutMs: 4 * MINUTE, releaseDelayMs: MINUTE },
    startTraffic: (onRequest) =>
      trafficLoop(cloud, clock, onRequest, (every) => {
        let next = 0;
        every(2 * SECOND, () => {
          // A few requests per tick, spread over the busy apps.
          for (let k = 0; k < 5 && busy.length; k++) {
            cloud.recordRequest(busy[next % busy.length]!, { path: '/' });
            next++;
          }
        });
        let asked = 0;
        every(
          20 * SECOND,
          () => {
            if (askers.length) cloud.recordRequest(askers[asked++ % askers.length]!, { path: '/' });
          },
          30 * SECOND,
        );
      }),
  };
}
