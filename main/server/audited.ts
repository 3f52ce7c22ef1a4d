/**
 * Who changed what: each configuration change made through the HTTP transport (routes, rules,
 * settings, the kill switch, dry-run, credentials) recorded with the person, the way they came
 * (dashboard, API, desktop, tray), and what it was before and after; and what a viewer is shown (no
 * secrets: a webhook's URL by its origin only).
 */
import type { CallName, ReaperEvent, Snapshot } from '../../shared/api.ts';
import type { Principal, Via } from '../../shared/people.ts';
import type { Settings } from '../../shared/settings.ts';
import { redactUrl, type WebhookStatus } from '../../shared/webhooks.ts';

/** Records one change (people.ts's store, `addAudit`). */
export type Auditor = (
  who: Principal & { via: Via },
  what: string,
  target: string | null,
  before: unknown,
  after: unknown,
) => Promise<void>;

interface Backend {
  call(name: CallName, raw: unknown): Promise<unknown>;
}

/** A webhook as a viewer sees it: its URL by its origin (a Slack URL's path is its secret). */
const byOrigin = <W extends { url: string }>(w: W): W => ({ ...w, url: redactUrl(w.url) });

/** Settings as the audit keeps them: webhooks' URLs by origin (the audit is read by viewers). */
function kept(settings: Partial<Settings>): Partial<Settings> {
  return settings.webhooks ? { ...settings, webhooks: settings.webhooks.map(byOrigin) } : settings;
}

/** What a call reads before it changes (null for a creation). */
async function before(backend: Backend, name: CallName, input: Record<string, unknown>): Promise<unknown> {
  switch (name) {
    case 'updateRoute':
    case 'deleteRoute':
      return backend.call('getRoute', { routeId: input.routeId });
    case 'updateRule':
    case 'deleteRule':
      return backend.call('getRule', { ruleId: input.ruleId });
    case 'updateSettings':
      return backend.call('getSettings', {});
    case 'connect':
    case 'startDemo':
      return backend.call('credentials', {});
    default:
      return null;
  }
}

const AUDITED: ReadonlySet<CallName> = new Set([
  'createRoute',
  'updateRoute',
  'deleteRoute',
  'createRule',
  'updateRule',
  'deleteRule',
  'updateSettings',
  'release',
  'connect',
  'startDemo',
]);

/** Make the call; a configuration change is recorded once it succeeded. */
export async function audited(
  backend: Backend,
  who: Principal & { via: Via },
  name: CallName,
  input: Record<string, unknown>,
  audit: Auditor | undefined,
): Promise<unknown> {
  if (!audit || !AUDITED.has(name)) return backend.call(name, input);
  const was = await before(backend, name, input).catch(() => null);
  const result = await backend.call(name, input);
  if (name === 'updateSettings') {
    const a = was as Settings;
    const b = result as Settings;
    const changed = (Object.keys(b) as (keyof Settings)[]).filter(
      (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]),
    );
    for (const key of ['killSwitch', 'dryRun'] as const)
      if (changed.includes(key)) await audit(who, key, null, a[key], b[key]);
    // killSwitchOn is the reaper's note of who turned it on: the killSwitch entry says as much.
    const rest = changed.filter((k) => k !== 'killSwitch' && k !== 'dryRun' && k !== 'killSwitchOn');
    if (rest.length) {
      const pick = (s: Settings) => kept(Object.fromEntries(rest.map((k) => [k, s[k]])) as Partial<Settings>);
      await audit(who, 'settings', null, pick(a), pick(b));
    }
    return result;
  }
  const what = name.includes('Route')
    ? 'route'
    : name.includes('Rule')
      ? 'rule'
      : name === 'release'
        ? 'release'
        : 'credentials';
  const target =
    (input.routeId as string | undefined) ??
    (input.ruleId as string | undefined) ??
    (input.appId as string | undefined) ??
    (result as { id?: string } | null)?.id ??
    null;
  const after = name.startsWith('delete')
    ? null
    : what === 'credentials'
      ? await backend.call('credentials', {})
      : result;
  await audit(who, what, target, was, after);
  return result;
}

/** A call's answer as a viewer gets it: no secret (webhooks' URLs by their origin). */
export function forViewer(name: CallName, result: unknown): unknown {
  switch (name) {
    case 'snapshot': {
      const s = result as Snapshot;
      return { ...s, settings: kept(s.settings) };
    }
    case 'getSettings':
    case 'updateSettings':
      return kept(result as Settings);
    case 'webhookStatus':
      return (result as WebhookStatus[]).map(byOrigin);
    default:
      return result;
  }
}

/** An event as a viewer's stream carries it. */
export function eventForViewer(event: ReaperEvent): ReaperEvent {
  return event.type === 'settings' ? { ...event, settings: kept(event.settings) as Settings } : event;
}
