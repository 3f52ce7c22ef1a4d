/**
 * Model-based test: random interleavings of requests, schedule boundaries, outside actions (console
 * stop, start, redeploy), deployment outcomes, API faults, settings and time, against the simulated
 * Clever Cloud. After every call and every step, the safety rules of the reaper must hold:
 *
 * - never a stop inside a must-be-up range, while a deployment is in progress, or while the kill
 *   switch is on or dry-run is on;
 * - never a start or a stop of an app in Error;
 * - every app in transit settles within the fail timeout plus one interval (when Clever Cloud could
 *   be read all along);
 * - a request for an Asleep app is always followed by a start.
 *
 * CI runs a fixed seed and a bounded number of runs; `SOAK_RUNS=2000 npm run soak` runs longer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../shared/durations.ts';
import { CleverCallError } from '../../shared/port-errors.ts';
import { Schedule } from '../../shared/schedule.ts';
import { InProcessCleverPort } from '../simulator/in-process-port.ts';
import { type DeploymentOutcome, SimulatedCloud } from '../simulator/model.ts';
import { ConfigStore, MemoryBackend } from '../store/config-store.ts';
import { harness, MONDAY_9AM } from '../testing/engine-harness.ts';
import { ManualClock } from './clocks.ts';
import type { CleverCloudPort } from './ports.ts';

type Action =
  | { t: 'advance'; ms: number }
  | { t: 'request'; app: number }
  | { t: 'consoleStop'; app: number }
  | { t: 'consoleStart'; app: number }
  | { t: 'gitPush'; app: number }
  | { t: 'outcome'; app: number; outcome: DeploymentOutcome }
  | { t: 'fault'; mode: 'error' | 'lost'; ms: number }
  | { t: 'killSwitch'; on: boolean }
  | { t: 'dryRun'; on: boolean }
  | { t: 'reset'; app: number };

const APPS = 3;
const app = fc.integer({ min: 0, max: APPS - 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('advance' as const),
      ms: fc.integer({ min: SECOND, max: 5 * MINUTE }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('request' as const), app }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('consoleStop' as const), app }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('consoleStart' as const), app }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('gitPush' as const), app }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('outcome' as const),
      app,
      outcome: fc.constantFrom<DeploymentOutcome>('fail', 'cancel', 'vanish', 'ok'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('fault' as const),
      mode: fc.constantFrom<'error' | 'lost'>('error', 'lost'),
      ms: fc.integer({ min: SECOND, max: 2 * MINUTE }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('killSwitch' as const), on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('dryRun' as const), on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('reset' as const), app }) },
);

/** The simulated Clever Cloud behind a port that can fail: errors before a call, or answers lost after it. */
class FaultyPort implements CleverCloudPort {
  faultUntil = 0;
  mode: 'error' | 'lost' = 'error';
  lastFaultEnd = Number.NEGATIVE_INFINITY;
  private readonly inner: InProcessCleverPort;
  private readonly clock: ManualClock;
  private readonly onCall: (name: 'start' | 'stop', ownerId: string, appId: string) => void;

  constructor(
    inner: InProcessCleverPort,
    clock: ManualClock,
    onCall: (name: 'start' | 'stop', ownerId: string, appId: string) => void,
  ) {
    this.inner = inner;
    this.clock = clock;
    this.onCall = onCall;
  }

  private get faulty(): boolean {
    return this.clock.now() < this.faultUntil;
  }

  private async call<T>(fn: () => Promise<T>, mutating: boolean): Promise<T> {
    if (this.faulty && (this.mode === 'error' || !mutating)) {
      throw new CleverCallError('server', 'Clever Cloud answered 503 (injected)', { status: 503 });
    }
    const result = await fn();
    if (this.faulty && mutating) throw new CleverCallError('network', 'the answer was lost (injected)');
    return result;
  }

  listOwners() {
    return this.call(() => this.inner.listOwners(), false);
  }
  listApplications(ownerId: string) {
    return this.call(() => this.inner.listApplications(ownerId), false);
  }
  getApplication(ownerId: string, appId: string) {
    return this.call(() => this.inner.getApplication(ownerId, appId), false);
  }
  listDeployments(ownerId: string, appId: string, options?: { limit?: number }) {
    return this.call(() => this.inner.listDeployments(ownerId, appId, options), false);
  }
  startApplication(ownerId: string, appId: string) {
    this.onCall('start', ownerId, appId);
    return this.call(() => this.inner.startApplication(ownerId, appId), true);
  }
  stopApplication(ownerId: string, appId: string) {
    this.onCall('stop', ownerId, appId);
    return this.call(() => this.inner.stopApplication(ownerId, appId), true);
  }
}

async function check(actions: Action[]): Promise<void> {
  const clock = new ManualClock(MONDAY_9AM - 30 * MINUTE);
  const violations: string[] = [];
  const base = {
    cloud: new SimulatedCloud(clock),
    config: new ConfigStore(new MemoryBackend(), () => clock.now()),
  };
  const ranges = [{ days: 'Mon-Fri', start: '09:00', end: '11:00', timeZone: 'Europe/Paris' }];
  const schedules = [new Schedule([]), new Schedule(ranges), new Schedule([])];
  const expectations = new Map<string, number>(); // app -> time a request asked for it while Asleep
  const startsSeen = new Map<string, number>();
  const h = harness({
    clock,
    cloud: base.cloud,
    config: base.config,
    port: new FaultyPort(new InProcessCleverPort(base.cloud), clock, (name, _ownerId, appId) => {
      const record = h.engine.get(appId);
      const settings = h.config.settings();
      const now = clock.now();
      const index = ids.indexOf(appId);
      const sim = base.cloud.apps.get(appId)!;
      if (!record) violations.push(`${name} of a forgotten app`);
      else if (record.state === 'Error') violations.push(`${name} of ${sim.name} in Error`);
      if (name === 'stop') {
        if (schedules[index]!.activeAt(now)) violations.push(`stop of ${sim.name} inside a must-be-up range`);
        if (sim.deployments.some((d) => d.action === 'DEPLOY' && d.state === 'WIP')) {
          violations.push(`stop of ${sim.name} while a deployment is in progress`);
        }
        if (settings.killSwitch) violations.push(`stop of ${sim.name} with the kill switch on`);
        if (settings.dryRun) violations.push(`stop of ${sim.name} in dry-run`);
        if (record && record.state !== 'WaitingForShutdown')
          violations.push(`stop of ${sim.name} in ${record.state}`);
      } else {
        expectations.delete(appId);
        startsSeen.set(appId, now);
      }
    }),
  });
  const port = (h.engine as unknown as { deps: { clever: FaultyPort } }).deps.clever;
  const ids = [
    h.manage('plain', {}, { gracePeriodMs: 10 * MINUTE }).id,
    h.manage('office', {}, { gracePeriodMs: 10 * MINUTE, ranges }).id,
    h.manage('idle', { state: 'SHOULD_BE_DOWN' }, { gracePeriodMs: 5 * MINUTE }).id,
  ];
  const settings = h.config.settings();
  await h.engine.start();

  const afterStep = () => {
    const now = clock.now();
    for (const id of ids) {
      const r = h.engine.get(id);
      if (!r) continue;
      const transit =
        r.state === 'WaitingForInit' || r.state === 'WaitingForShutdown' || r.state === 'WaitingForUp';
      const unseen = port.lastFaultEnd >= r.stateSince;
      const bound = settings.failTimeoutMs + settings.intervalMs + settings.fastIntervalMs;
      if (transit && !unseen && now - r.stateSince > bound) {
        violations.push(`${r.name} in ${r.state} for ${(now - r.stateSince) / SECOND} s`);
      }
      const asked = expectations.get(id);
      const deadline = Math.max(asked ?? 0, port.lastFaultEnd) + 2 * settings.fastIntervalMs;
      if (asked !== undefined && now > deadline) {
        if (r.state === 'Down')
          violations.push(`${r.name} asked for at ${asked - MONDAY_9AM} ms and not started`);
        expectations.delete(id);
      }
    }
  };

  for (const a of actions) {
    const target = 'app' in a ? ids[a.app]! : '';
    switch (a.t) {
      case 'advance':
        for (let left = a.ms; left > 0; left -= 5 * SECOND) {
          await clock.advance(Math.min(5 * SECOND, left));
          afterStep();
        }
        if (clock.now() >= port.faultUntil)
          port.lastFaultEnd = Math.max(port.lastFaultEnd, Math.min(port.faultUntil, clock.now()));
        break;
      case 'request': {
        const before = h.engine.get(target);
        if (before?.state === 'Down' && (startsSeen.get(target) ?? 0) < clock.now())
          expectations.set(target, clock.now());
        await h.engine.request(target, 'wake-proxy');
        break;
      }
      case 'consoleStop':
        base.cloud.consoleStop(target);
        break;
      case 'consoleStart':
        base.cloud.consoleStart(target);
        break;
      case 'gitPush':
        base.cloud.gitPush(target);
        break;
      case 'outcome':
        base.cloud.injectOutcomes(target, a.outcome);
        break;
      case 'fault':
        port.mode = a.mode;
        port.faultUntil = clock.now() + a.ms;
        port.lastFaultEnd = port.faultUntil;
        break;
      case 'killSwitch':
        h.config.updateSettings({ killSwitch: a.on });
        break;
      case 'dryRun':
        h.config.updateSettings({ dryRun: a.on });
        break;
      case 'reset':
        if (h.engine.get(target)?.state === 'Error') await h.engine.reset(target);
        break;
    }
    afterStep();
    if (violations.length) break;
  }
  // Let every pending start and stop play out, then check once more.
  port.faultUntil = 0;
  for (let i = 0; i < (20 * MINUTE) / (5 * SECOND) && !violations.length; i++) {
    await clock.advance(5 * SECOND);
    afterStep();
  }
  await h.engine.stop();
  expect(violations).toEqual([]);
}

describe('random interleavings against the simulated Clever Cloud', () => {
  const runs = Number(process.env.SOAK_RUNS ?? 150);
  it(`hold every safety rule (${runs} runs of up to 40 steps, fixed seed)`, async () => {
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 40 }), check), {
      numRuns: runs,
      seed: Number(process.env.SOAK_SEED ?? 20261129),
      endOnFailure: true,
    });
  }, 600_000);
});
