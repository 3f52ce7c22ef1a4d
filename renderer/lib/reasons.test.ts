/**
 * Every reason the engine writes, read in French and in English. The decision reasons are taken from
 * the engine itself: the pure decision function is run over a sweep of states, Clever Cloud states,
 * deployments and settings, and every transition and note it writes is collected. The reasons the
 * engine's stateful parts write (engine.ts, evaluator.ts: adoption, keep awake, reset, calls) need a
 * running engine: they are listed as those files write them.
 * (A test-only import of main/engine: the renderer itself never imports main/.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decide, releaseDecision } from '../../main/engine/decide.ts';
import type { DecisionContext, Observation } from '../../main/engine/decision.ts';
import type { CleverApp, CleverDeployment } from '../../main/engine/ports.ts';
import { causeKind } from '../../shared/causes.ts';
import { type AppRecord, CAUSES, newRecord, REAPER_STATES, TRAFFIC_SOURCES } from '../../shared/domain.ts';
import { HOUR, MINUTE } from '../../shared/durations.ts';
import type { AppRouting } from '../../shared/routes.ts';
import { Schedule } from '../../shared/schedule.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { i18n } from '../i18n.ts';
import { setViewerTimeZone } from './format.ts';
import { reasonText } from './reasons.ts';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0); // a Monday
const APP = 'app_00000000-0000-4000-8000-000000000001';
const OWNER = 'orga_00000000-0000-4000-8000-000000000002';

function routing(overrides: Partial<AppRouting> = {}): AppRouting {
  return {
    managed: true,
    ownerId: OWNER,
    gracePeriodMs: 90 * MINUTE,
    ranges: [],
    hosts: [],
    filters: { pathPrefixes: [], sources: [] },
    routeIds: ['route_1'],
    ruleId: null,
    dryRun: false,
    group: null,
    ...overrides,
  };
}

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

/** What engine.ts and evaluator.ts write, as they write it. */
const ENGINE_REASONS = [
  "put under the reaper by rule 'review apps'",
  'put under the reaper by rule rule_123',
  'put under the reaper by a route',
  ...TRAFFIC_SOURCES.map((s) => `dry-run: a request (${s}) would have woken the app`),
  'keep awake cancelled',
  `kept awake until ${new Date(T0 + 2 * HOUR).toISOString()}`,
  'reset from the console',
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

/** English words of the engine's reasons; none may be left in French once raw values are taken out. */
const ENGLISH =
  /\b(the|says|started|stopped|restarted|redeployed|outside|deployment|request|traffic|grace|period|would|released|forgotten|accepted|failed|awake|kept|reset|with|group|range|begins|asked|cancelled|start|stop|last|no|app|put|under|rule|none|someone|deploying)\b/i;

/** Clever Cloud's values and ours that stay as written: states, ids, error messages, causes, names. */
function withoutRawValues(text: string): string {
  let out = text;
  for (const cause of [CAUSES.stopTimeout, CAUSES.startTimeout, CAUSES.startFailed, CAUSES.neverDeployed])
    out = out.replaceAll(cause, '');
  out = out.replace(/the last deployment of the app is '[^']*', it cannot be put to sleep safely/g, '');
  out = out.replace(/unexpected clever cloud state '[^']*'/g, '');
  return out
    .replace(/\b[A-Z][A-Z_]+\b/g, '') // SHOULD_BE_UP, OK, FAIL, DELETE
    .replace(/\bdep(loyment)?[-_]\w+/g, '')
    .replace(/\(Clever Cloud answered 400[^)]*\)/g, '')
    .replace(
      /: (Clever Cloud answered 503: Service Unavailable|connect ECONNREFUSED|the request timed out)$/,
      '',
    )
    .replace(/'review apps'|rule_123|\bfront\b/g, '');
}

afterEach(async () => {
  await i18n.changeLanguage('en');
  setViewerTimeZone(null);
});

describe('reasons in the dashboard language', () => {
  const reasons = [...decisionReasons(), ...ENGINE_REASONS];

  it('the sweep reaches the decision reasons of every kind', () => {
    const fromDecisions = decisionReasons();
    expect(fromDecisions.size).toBeGreaterThanOrEqual(30);
    for (const expected of [
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
    ]) {
      expect(fromDecisions, expected).toContain(expected);
    }
  });

  it('English shows every reason exactly as the engine wrote it', () => {
    for (const reason of reasons) expect(reasonText(reason)).toBe(reason);
  });

  it('French translates every reason, keeping Clever Cloud’s values and the causes word for word', async () => {
    await i18n.changeLanguage('fr');
    for (const reason of reasons) {
      const french = reasonText(reason);
      const isCause = causeKind(reason).kind !== 'unknown';
      if (isCause) {
        expect(french, reason).toBe(reason);
        continue;
      }
      expect(french, reason).not.toBe(reason);
      expect(withoutRawValues(french), `${reason} -> ${french}`).not.toMatch(ENGLISH);
    }
  });

  it('French writes durations, sources and times its own way, raw values as they are', async () => {
    await i18n.changeLanguage('fr');
    setViewerTimeZone('UTC');
    expect(reasonText('no traffic for 1 h 30 min (grace period 2 min), last deployment OK')).toBe(
      'aucun trafic depuis 1 h 30 min (délai de grâce 2 min), dernier déploiement OK',
    );
    expect(reasonText('no traffic for 2 d 3 h (grace period 45 s), no deployment')).toBe(
      'aucun trafic depuis 2 j 3 h (délai de grâce 45 s), aucun déploiement',
    );
    expect(reasonText('asked for by access-log')).toBe('demandée depuis : journal d’accès');
    expect(reasonText('dry-run: a request (wake-proxy) would have woken the app')).toBe(
      'simulation : une requête (proxy de réveil) aurait réveillé l’application',
    );
    expect(reasonText(`kept awake until ${new Date(T0).toISOString()}`)).toMatch(
      /^maintenue éveillée jusqu’à .*09:00:00/,
    );
    expect(reasonText('stop failed: Clever Cloud answered 503: Service Unavailable')).toBe(
      'l’arrêt a échoué : Clever Cloud answered 503: Service Unavailable',
    );
    const unsafe = CAUSES.unsafeLastDeployment('FAIL');
    expect(
      reasonText(
        `dry-run: would not stop it: ${unsafe}; no traffic for 2 h (grace period 1 h), last deployment FAIL`,
      ),
    ).toBe(
      `simulation : elle ne serait pas arrêtée : ${unsafe} ; aucun trafic depuis 2 h (délai de grâce 1 h), dernier déploiement FAIL`,
    );
    expect(reasonText(CAUSES.unexpectedState('MODERATED'))).toBe(CAUSES.unexpectedState('MODERATED'));
  });

  it('a reason of no known form is shown as written, in both languages', async () => {
    const odd = 'something an older version wrote';
    expect(reasonText(odd)).toBe(odd);
    await i18n.changeLanguage('fr');
    expect(reasonText(odd)).toBe(odd);
    expect(reasonText('no traffic for a while (grace period 1 h), no deployment')).toContain('aucun trafic');
  });
});
