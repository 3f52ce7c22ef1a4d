/**
 * Every reason the engine writes, for the dashboard's reason tests (renderer/lib/reasons.test.ts
 * reads renderer/test/engine-reasons.json; the renderer may not import main/, so the list is kept
 * there and checked here). The decision reasons are taken from the engine itself: the pure decision
 * function is run over a sweep of states, Clever Cloud states, deployments and settings, and every
 * transition and note it writes is collected. The reasons the engine's stateful parts write
 * (engine.ts, evaluator.ts: adoption, keep awake, reset, calls) need a running engine: they are
 * listed as those files write them.
 *
 * When the engine writes a new reason, this test fails: run it with UPDATE_ENGINE_REASONS=1 to write
 * the list again, then give the new reason its form in renderer/lib/reasons.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decide, releaseDecision } from '../main/engine/decide.ts';
import type { DecisionContext, Observation } from '../main/engine/decision.ts';
import type { CleverApp, CleverDeployment } from '../main/engine/ports.ts';
import { managedRouting } from '../main/testing/fixtures.ts';
import { type AppRecord, CAUSES, newRecord, REAPER_STATES, TRAFFIC_SOURCES } from '../shared/domain.ts';
import { HOUR, MINUTE } from '../shared/durations.ts';
import type { AppRouting } from '../shared/routes.ts';
import { Schedule } from '../shared/schedule.ts';
import { DEFAULT_SETTINGS } from '../shared/settings.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0); // a Monday
const APP = 'app_00000000-0000-4000-8000-000000000001';
const OWNER = 'orga_00000000-0000-4000-8000-000000000002';

const routing = (overrides: Partial<AppRouting> = {}) =>
  managedRouting({ ownerId: OWNER, gracePeriodMs: 90 * MINUTE, ...overrides });

/** The reasons the decision function writes, over a sweep of situations. */
function decisionReasons(): Set<string> {
  const out = new Set<string>();
  const deploymentSets: (CleverDeployment[] | undefined)[] = [
    [],
    ...['OK', 'FAIL', 'CANCELLED', 'WIP', 'TASK_RUNNING', 'BROKEN'].flatMap((state) =>
      [T0 - 5 * HOUR, T0 + MINUTE].map((date) => [
        { uuid: `dep-${state}`, state, action: 'DEPLOY', date, cause: null },
      ]),
    ),
  ];
  const cleverStates = ['SHOULD_BE_UP', 'SHOULD_BE_DOWN', 'WANTS_TO_BE_UP', 'MODERATED', 'NEW_STATE'];
  const records: Partial<AppRecord>[] = [
    {},
    { cameUpAt: T0 - 3 * HOUR, lastRequestAt: T0 - 2 * HOUR },
    { wakeRequestedAt: T0 - MINUTE, lastRequestSource: 'dashboard' },
    { wakeRequestedAt: T0 - MINUTE },
    { firstStartAskedAt: T0 - 2 * MINUTE, lastStartAskedAt: T0 - 2 * MINUTE },
    { firstStartAskedAt: T0 - HOUR, lastStartAskedAt: T0 - HOUR, pendingCall: 'start' },
    { stopAskedAt: T0 - HOUR, pendingCall: 'stop' },
    { lastDeployNumber: 2, cameUpAt: T0 - 3 * HOUR },
    { cleverState: 'WANTS_TO_BE_UP' },
    { stateSince: T0 - 2 * MINUTE },
  ];
  const contexts = (dryRun: boolean, groupWakeOf?: string): DecisionContext[] => {
    const r = routing({ dryRun });
    const ranged = routing({ ranges: [{ days: 'Mon', start: '08:00', end: '12:00', timeZone: 'UTC' }] });
    const base = { now: T0, settings: { ...DEFAULT_SETTINGS, dryRun } };
    return [
      { ...base, routing: r, schedule: new Schedule([]), ...(groupWakeOf ? { groupWakeOf } : {}) },
      { ...base, routing: ranged, schedule: new Schedule(ranged.ranges) },
    ];
  };
  for (const state of REAPER_STATES) {
    for (const overrides of records) {
      const record: AppRecord = {
        ...newRecord(APP, OWNER, 'staging', T0 - 2 * HOUR),
        state,
        lastDeployNumber: 3,
        ...overrides,
      };
      for (const cc of cleverStates) {
        const app: CleverApp = { id: APP, ownerId: OWNER, name: 'staging', state: cc, lastDeployNumber: 3 };
        for (const deployments of deploymentSets) {
          for (const ctx of [...contexts(false), ...contexts(true), ...contexts(false, 'front')]) {
            const obs: Observation = { app, deployments };
            const d = decide(record, obs, ctx);
            if (d.type === 'act') {
              if (d.transition) out.add(d.transition.reason);
              for (const n of d.notes ?? []) out.add(n.reason);
            }
          }
        }
      }
    }
  }
  for (const state of REAPER_STATES) {
    const record = { ...newRecord(APP, OWNER, 'staging', T0), state };
    out.add(releaseDecision(record).reason);
    out.add(releaseDecision(record, false).reason);
  }
  return out;
}

/** What engine.ts and evaluator.ts write, as they write it (the ids and errors are examples). */
const ENGINE_REASONS = [
  "put under the reaper by rule 'review apps'",
  'put under the reaper by rule rule_123',
  'put under the reaper by a route',
  ...TRAFFIC_SOURCES.map((s) => `dry-run: a request (${s}) would have woken the app`),
  'keep awake cancelled',
  `kept awake until ${new Date(T0 + 2 * HOUR).toISOString()}`,
  'reset from the console',
  'the app answered the first request 47 s after it (1 s after Up)',
  'the app answered the first request 1 min 5 s after it (0 s after Up)',
  'Clever Cloud accepted the stop (DELETE instances)',
  'Clever Cloud accepted the start',
  'Clever Cloud accepted the start (sent again)',
  'Clever Cloud accepted the start, deployment deployment_9f1c',
  'Clever Cloud accepted the start, deployment deployment_9f1c (sent again)',
  `${CAUSES.neverDeployed} (Clever Cloud answered 400: the application has never been deployed)`,
  'stop failed: Clever Cloud answered 503: Service Unavailable',
  'start failed: connect ECONNREFUSED',
  'restart failed: the request timed out',
  ...TRAFFIC_SOURCES.map((s) => `asked for by ${s}`),
];

/** Decision reasons the sweep must reach (one of each kind). */
const EXPECTED = [
  'Clever Cloud says SHOULD_BE_UP',
  'Clever Cloud says SHOULD_BE_DOWN',
  'stopped outside the reaper: Clever Cloud says SHOULD_BE_DOWN',
  'a must-be-up range begins',
  'woken with its group (request for front)',
  'asked for by dashboard',
  'asked for by a request',
  'no traffic for 2 h (grace period 1 h 30 min), last deployment OK',
  'dry-run: would stop the app; no traffic for 2 h (grace period 1 h 30 min), no deployment',
  'released: forgotten',
  'a start made outside the reaper did not happen: Clever Cloud says SHOULD_BE_DOWN',
  'Clever Cloud says SHOULD_BE_UP, deployment none',
  'the deployment was cancelled: the next request asks again',
  CAUSES.startTimeout,
];

const LIST = new URL('../renderer/test/engine-reasons.json', import.meta.url);

describe('the reasons the engine writes', () => {
  const fromDecisions = decisionReasons();
  const all = [...new Set([...fromDecisions, ...ENGINE_REASONS])].sort();
  if (process.env.UPDATE_ENGINE_REASONS) writeFileSync(LIST, `${JSON.stringify(all, null, 2)}\n`);

  it('the sweep reaches the decision reasons of every kind', () => {
    expect(fromDecisions.size).toBeGreaterThanOrEqual(30);
    for (const expected of EXPECTED) expect(fromDecisions, expected).toContain(expected);
  });

  it('are the list the dashboard tests read (renderer/test/engine-reasons.json)', () => {
    expect(JSON.parse(readFileSync(LIST, 'utf8'))).toEqual(all);
  });
});
