/**
 * What the apps table and the app's details say of an app's sleep and notes (pure, in the current
 * language). A time that comes from a must-be-up range (a range's start or end) says the range's
 * zone when that zone writes it otherwise than the viewer's: "wakes at 08:00 (09:00 Europe/Paris)".
 */
import type { AppView } from '../../shared/app-view.ts';
import type { Route } from '../../shared/routes.ts';
import type { Rule } from '../../shared/rules.ts';
import { type MustBeUpRange, nextTransitions } from '../../shared/schedule.ts';
import { i18n } from '../i18n.ts';
import { causeText } from './cause-text.ts';
import { clockTime, clockTimeIn, fullTime, until } from './format.ts';

/** The must-be-up ranges that apply to an app: its enabled routes', else its rule's. */
export function rangesOf(
  app: Pick<AppView, 'routeIds' | 'ruleId'>,
  routes: readonly Route[],
  rules: readonly Rule[],
): MustBeUpRange[] {
  if (app.routeIds.length > 0) {
    const ids = new Set(app.routeIds);
    return routes.filter((r) => ids.has(r.id)).flatMap((r) => r.ranges);
  }
  return rules.find((r) => r.id === app.ruleId)?.ranges ?? [];
}

/**
 * The zone of the range that starts (`up`) or ends at `t`: the only zone of the ranges, or the
 * zone of the range whose start or end falls at `t`; null when none can be told.
 */
export function rangeZoneAt(ranges: readonly MustBeUpRange[], t: number, up: boolean): string | null {
  const zones = new Set(ranges.map((r) => r.timeZone));
  if (zones.size <= 1) return ranges[0]?.timeZone ?? null;
  const range = ranges.find((r) => nextTransitions([r], t - 1, 2).some((x) => x.at === t && x.up === up));
  return range?.timeZone ?? null;
}

/** "sleeps at 14:32 / in 3 min unless traffic", and what holds a sleep back. */
export function sleepCell(
  app: AppView,
  now: number,
  ranges: readonly MustBeUpRange[] = [],
): { main: string; sub: string | null; tone: string; title: string } | null {
  if (app.state === 'Up') {
    if (app.sleepNote === 'kill switch on') {
      return {
        main: i18n.t('apps:cells.noSleep'),
        sub: i18n.t('apps:cells.killSwitchOn'),
        tone: 'warn',
        title: i18n.t('apps:cells.killSwitchTitle'),
      };
    }
    if (app.sleepsAt === null) return null;
    const time = clockTime(app.sleepsAt, now);
    const main =
      app.sleepNote === 'dry-run'
        ? i18n.t('apps:cells.wouldSleepAt', { time })
        : i18n.t('apps:cells.sleepsAt', { time });
    const title = i18n.t('apps:cells.unlessTraffic', { main, time: fullTime(app.sleepsAt) });
    if (app.mustBeUpUntil !== null && app.mustBeUpUntil > now) {
      const zone = rangeZoneAt(ranges, app.mustBeUpUntil, false);
      const sub = i18n.t('apps:cells.mustBeUpUntil', { time: clockTimeIn(app.mustBeUpUntil, now, zone) });
      return { main, sub, tone: '', title };
    }
    if (app.keepAwakeUntil !== null) {
      const sub = i18n.t('apps:cells.keptAwakeUntil', { time: clockTime(app.keepAwakeUntil, now) });
      return { main, sub, tone: '', title };
    }
    const sub = app.sleepsAt <= now ? i18n.t('apps:cells.dueNow') : until(app.sleepsAt, now);
    return { main, sub, tone: '', title };
  }
  if (app.state === 'Down' && app.nextMustBeUpAt !== null) {
    const zone = rangeZoneAt(ranges, app.nextMustBeUpAt, true);
    const main = i18n.t('apps:cells.wakesAt', { time: clockTimeIn(app.nextMustBeUpAt, now, zone) });
    return {
      main,
      sub: i18n.t('apps:cells.range'),
      tone: '',
      title: i18n.t('apps:cells.rangeBegins', { main }),
    };
  }
  return null;
}

/** The cause of an Error, or what else the operator should know about the app. */
export function noteCell(app: AppView, now: number): { text: string; tone: string; title?: string } | null {
  if (app.cause) {
    // In another language, the cause translated, its recorded English original on hover.
    const { text, translated } = causeText(app.cause);
    return { text, tone: 'danger', title: translated ? app.cause : text };
  }
  if (app.releaseAt !== null) {
    return { text: i18n.t('apps:cells.released', { when: until(app.releaseAt, now) }), tone: 'warn' };
  }
  if (app.notice) return { text: app.notice, tone: 'warn' };
  if (app.wakeRequestedAt !== null && app.state !== 'Up')
    return { text: i18n.t('apps:cells.askedFor'), tone: '' };
  if (app.pendingCall === 'stop') return { text: i18n.t('apps:cells.pendingStop'), tone: '' };
  if (app.pendingCall === 'start') return { text: i18n.t('apps:cells.pendingStart'), tone: '' };
  return null;
}
