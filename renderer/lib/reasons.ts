/**
 * The engine's reasons (history `reason`) in the dashboard's language. The engine writes them in
 * English, and the history, the API and the downloads keep them as written; here each known form is
 * read back (an anchored pattern, its parts as named groups) into a key of the `reasons` catalogue,
 * whose English reproduces the engine's text exactly.
 *
 * Parts that are ours are translated: durations (format.ts), request sources, times, the nested
 * parts of a sleep's reason. Clever Cloud's values (states, deployment states and ids, error
 * messages), rule labels and app names are shown as written, and so are the Error causes of the spec,
 * word for word in every language (the dashboard explains them elsewhere). A reason of no known form
 * is shown as written.
 */
import { causeKind } from '../../shared/causes.ts';
import { CONSOLE_LABELS, REAPER_STATES, TRAFFIC_SOURCES, type TrafficSource } from '../../shared/domain.ts';
import { DAY, HOUR, MINUTE, SECOND } from '../../shared/durations.ts';
import type { reasons as en } from '../../shared/i18n/en/reasons.ts';
import { currentLanguage, i18n } from '../i18n.ts';
import { causeText } from './cause-text.ts';
import { formatDuration, fullTime, localTimestamps, sourceLabel } from './format.ts';

type ReasonKey = keyof typeof en;
type Groups = Record<string, string>;

interface Rule {
  pattern: RegExp;
  key: ReasonKey;
  /** The placeholders from the groups (default: the groups as they are). */
  values?: (groups: Groups) => Groups;
}

/** Texts the engine writes in English: shown as written in English, translated in other languages. */
const asWrittenInEnglish = () => currentLanguage() === 'en';

const UNIT_MS: Record<string, number> = { d: DAY, h: HOUR, min: MINUTE, s: SECOND };

/** "1 h 30 min" (shared/durations.ts formatDuration) in the current language; else as written. */
function duration(text: string): string {
  const parts = text.split(' ');
  if (parts.length % 2 !== 0) return text;
  let ms = 0;
  for (let i = 0; i < parts.length; i += 2) {
    const n = Number(parts[i]);
    const unit = UNIT_MS[parts[i + 1]!];
    if (!/^\d+$/.test(parts[i]!) || unit === undefined) return text;
    ms += n * unit;
  }
  return formatDuration(ms);
}

/** A request source ("dashboard", "access-log"), or "a request" when none was known. */
function source(text: string): string {
  if (asWrittenInEnglish() || !(TRAFFIC_SOURCES as readonly string[]).includes(text)) return text;
  return sourceLabel(text as TrafficSource);
}

/** An ISO time the engine wrote, in the viewer's time zone and language. */
function time(text: string): string {
  const t = Date.parse(text);
  return asWrittenInEnglish() || Number.isNaN(t) ? text : fullTime(t);
}

const BLOCKERS: Record<string, ReasonKey> = {
  'inside a must-be-up range': 'blockerRange',
  'kept awake': 'blockerKeptAwake',
  'the kill switch is on': 'blockerKillSwitch',
  'no enabled route manages the app': 'blockerNoRoute',
  'traffic within the grace period': 'blockerTraffic',
  'the traffic logged while the reaper was away is still being read': 'blockerUnread',
};

/** Why a group member holds the others awake (decide-group.ts: a sleep blocker, or its state in lower case). */
function blocker(text: string): string {
  if (asWrittenInEnglish()) return text;
  const key = BLOCKERS[text];
  if (key) return say(key, {});
  const state = REAPER_STATES.find((s) => CONSOLE_LABELS[s].toLowerCase() === text);
  return state ? i18n.t(`common:states.${state}`).toLowerCase() : text;
}

/** "last deployment OK" or "no deployment", as a sleep's reason ends. */
function lastDeployment(text: string): string {
  if (text === 'no deployment') return i18n.t('reasons:noDeployment');
  const m = /^last deployment (?<deployment>\S+)$/.exec(text);
  return m ? i18n.t('reasons:lastDeployment', { deployment: m.groups!.deployment! }) : text;
}

/** What a sleep would have done, in dry-run. */
function dryRunOutcome(text: string): string {
  if (text === 'would stop the app') return i18n.t('reasons:dryRunWouldStop');
  if (text === 'would wait: someone is deploying') return i18n.t('reasons:dryRunWouldWait');
  const m = /^would not stop it: (?<cause>.+)$/s.exec(text);
  return m ? i18n.t('reasons:dryRunWouldNotStop', { cause: m.groups!.cause! }) : text;
}

const STATE = '(?<state>\\S+)';
const DEPLOYMENT = '(?<deployment>\\S+)';
const re = (body: string) => new RegExp(`^${body}$`, 's');

/** Every form the engine writes (main/engine: decide*.ts, engine.ts, evaluator.ts), most specific first. */
const RULES: readonly Rule[] = [
  {
    pattern: re(`Clever Cloud says ${STATE}, but its last start ended ${DEPLOYMENT}: not starting`),
    key: 'saysLastStartEnded',
  },
  { pattern: re(`Clever Cloud says ${STATE}: the app is starting`), key: 'saysStarting' },
  { pattern: re(`Clever Cloud says ${STATE}, deployment none`), key: 'saysNoDeployment' },
  { pattern: re(`Clever Cloud says ${STATE}, deployment ${DEPLOYMENT}`), key: 'saysDeployment' },
  { pattern: re(`Clever Cloud says ${STATE}`), key: 'says' },
  { pattern: re(`started outside the reaper: deployment ${DEPLOYMENT}`), key: 'startedOutsideDeployment' },
  { pattern: re(`started outside the reaper: Clever Cloud says ${STATE}`), key: 'startedOutsideSays' },
  {
    pattern: re(`a start made outside the reaper did not happen: Clever Cloud says ${STATE}`),
    key: 'outsideStartVanished',
  },
  { pattern: re(`stopped outside the reaper: Clever Cloud says ${STATE}`), key: 'stoppedOutside' },
  { pattern: re(`restarted outside the reaper: Clever Cloud says ${STATE}`), key: 'restartedOutside' },
  { pattern: re(`redeployed outside the reaper: deployment ${DEPLOYMENT}`), key: 'redeployedOutside' },
  { pattern: re('the deployment was cancelled: the next request asks again'), key: 'cancelledAsksAgain' },
  { pattern: re(`the deployment was cancelled, Clever Cloud says ${STATE}`), key: 'cancelledSays' },
  { pattern: re('woken with its group \\(request for (?<name>.+)\\)'), key: 'wokenWithGroup' },
  { pattern: re('asked for by a request'), key: 'askedForByRequest' },
  {
    pattern: re('asked for by (?<source>\\S+)'),
    key: 'askedForBy',
    values: (g) => ({ source: source(g.source!) }),
  },
  { pattern: re('a must-be-up range begins'), key: 'rangeBegins' },
  {
    pattern: re(
      'no traffic for (?<idle>[^()]+) \\(grace period (?<grace>[^()]+)\\), (?<last>last deployment \\S+|no deployment)',
    ),
    key: 'idle',
    values: (g) => ({ idle: duration(g.idle!), grace: duration(g.grace!), last: lastDeployment(g.last!) }),
  },
  {
    pattern: re('dry-run: a request \\((?<source>\\S+)\\) would have woken the app'),
    key: 'dryRunWake',
    values: (g) => ({ source: source(g.source!) }),
  },
  {
    pattern: re(
      'dry-run: (?<outcome>would stop the app|would wait: someone is deploying|would not stop it: [^;]+); (?<rest>.+)',
    ),
    key: 'dryRunSleep',
    values: (g) => ({ outcome: dryRunOutcome(g.outcome!), rest: reasonText(g.rest!) }),
  },
  { pattern: re('released: Clever Cloud no longer knows the app, forgotten'), key: 'releasedUnknown' },
  { pattern: re('released: started so that it is not left asleep, then forgotten'), key: 'releasedStarted' },
  { pattern: re('released: forgotten'), key: 'released' },
  { pattern: re('put under the reaper by rule (?<rule>.+)'), key: 'byRule' },
  { pattern: re('put under the reaper by a route'), key: 'byRoute' },
  { pattern: re('keep awake cancelled'), key: 'keepAwakeCancelled' },
  {
    pattern: re('kept awake until (?<time>\\S+)'),
    key: 'keptAwakeUntil',
    values: (g) => ({ time: time(g.time!) }),
  },
  { pattern: re('reset from the console'), key: 'reset' },
  {
    pattern: re('the app answered the first request (?<wait>.+) after it \\((?<afterUp>.+) after Up\\)'),
    key: 'firstAnswer',
    values: (g) => ({ wait: duration(g.wait!), afterUp: duration(g.afterUp!) }),
  },
  { pattern: re('Clever Cloud accepted the stop \\(DELETE instances\\)'), key: 'stopAccepted' },
  { pattern: re('Clever Cloud accepted the start'), key: 'startAccepted' },
  {
    pattern: re(`Clever Cloud accepted the start, deployment ${DEPLOYMENT}`),
    key: 'startAcceptedDeployment',
  },
  { pattern: re('Clever Cloud accepted the start \\(sent again\\)'), key: 'startAcceptedAgain' },
  {
    pattern: re(`Clever Cloud accepted the start, deployment ${DEPLOYMENT} \\(sent again\\)`),
    key: 'startAcceptedDeploymentAgain',
  },
  {
    pattern: re('waiting for group member (?<name>.+) \\(grace period ends at (?<time>\\S+)\\)'),
    key: 'groupWaitingGrace',
    values: (g) => ({ name: g.name!, time: time(g.time!) }),
  },
  {
    pattern: re('waiting for group member (?<name>.+) \\((?<blocker>[^(),]+), until (?<time>\\S+)\\)'),
    key: 'groupWaitingUntil',
    values: (g) => ({ name: g.name!, blocker: blocker(g.blocker!), time: time(g.time!) }),
  },
  {
    pattern: re('waiting for group member (?<name>.+) \\((?<blocker>[^(),]+)\\)'),
    key: 'groupWaiting',
    values: (g) => ({ name: g.name!, blocker: blocker(g.blocker!) }),
  },
  {
    pattern: re('(?<name>\\S+) is in Error \\((?<cause>.+)\\): it does not hold the group awake'),
    key: 'groupMemberInError',
    values: (g) => ({
      name: g.name!,
      cause: g.cause === 'unknown cause' ? i18n.t('reasons:unknownCause') : reasonText(g.cause!),
    }),
  },
  { pattern: re('stop failed: (?<message>.*)'), key: 'stopFailed' },
  { pattern: re('start failed: (?<message>.*)'), key: 'startFailed' },
  { pattern: re('restart failed: (?<message>.*)'), key: 'restartFailed' },
];

/** The message of `key` with its parts (keys are typed by ReasonKey; i18next types each key's values). */
function say(key: ReasonKey, values: Groups): string {
  const t = i18n.t as (key: string, values: Groups) => string;
  return t(`reasons:${key}`, values);
}

/** A history reason in the current language; an Error cause, or a reason of no known form, as written. */
export function reasonText(reason: string): string {
  // The causes of the spec in the screen's language (cause-text.ts); the record keeps them word for word.
  if (causeKind(reason).kind !== 'unknown') return causeText(reason).text;
  for (const rule of RULES) {
    const m = rule.pattern.exec(reason);
    if (!m) continue;
    const groups: Groups = { ...m.groups };
    return localTimestamps(say(rule.key, rule.values ? rule.values(groups) : groups));
  }
  return localTimestamps(reason);
}
