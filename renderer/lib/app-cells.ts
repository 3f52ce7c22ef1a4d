/** What the apps table and the app's details say of an app's sleep and notes (pure). */
import type { AppView } from '../../shared/app-view.ts';
import { clockTime, fullTime, until } from './format.ts';

/** "sleeps at 14:32 / in 3 min unless traffic", and what holds a sleep back. */
export function sleepCell(
  app: AppView,
  now: number,
): { main: string; sub: string | null; tone: string; title: string } | null {
  if (app.state === 'Up') {
    if (app.sleepNote === 'kill switch on') {
      return { main: 'no sleep', sub: 'kill switch on', tone: 'warn', title: 'the kill switch is on' };
    }
    if (app.sleepsAt === null) return null;
    const verb = app.sleepNote === 'dry-run' ? 'would sleep' : 'sleeps';
    const main = `${verb} at ${clockTime(app.sleepsAt, now)}`;
    const title = `${main} unless traffic (${fullTime(app.sleepsAt)})`;
    if (app.mustBeUpUntil !== null && app.mustBeUpUntil > now) {
      return { main, sub: `must be up until ${clockTime(app.mustBeUpUntil, now)}`, tone: '', title };
    }
    if (app.keepAwakeUntil !== null) {
      return { main, sub: `kept awake until ${clockTime(app.keepAwakeUntil, now)}`, tone: '', title };
    }
    return { main, sub: app.sleepsAt <= now ? 'due now' : until(app.sleepsAt, now), tone: '', title };
  }
  if (app.state === 'Down' && app.nextMustBeUpAt !== null) {
    const main = `wakes at ${clockTime(app.nextMustBeUpAt, now)}`;
    return { main, sub: 'must-be-up range', tone: '', title: `${main}: a must-be-up range begins` };
  }
  return null;
}

/** The cause of an Error, or what else the operator should know about the app. */
export function noteCell(app: AppView, now: number): { text: string; tone: string } | null {
  if (app.cause) return { text: app.cause, tone: 'danger' };
  if (app.releaseAt !== null) {
    return { text: `no enabled route: released ${until(app.releaseAt, now)}`, tone: 'warn' };
  }
  if (app.notice) return { text: app.notice, tone: 'warn' };
  if (app.wakeRequestedAt !== null && app.state !== 'Up') return { text: 'asked for: starting', tone: '' };
  if (app.pendingCall) return { text: `${app.pendingCall} sent, waiting for Clever Cloud`, tone: '' };
  return null;
}
