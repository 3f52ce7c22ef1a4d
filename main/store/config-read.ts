/**
 * Reading routes and settings as they were stored, without losing any of them: what validates is
 * used, what does not is kept aside as it is (to be written back untouched, and shown with its
 * reason), never dropped. An unreadable kill switch or dry-run reads as on: the safe side.
 */
import { InputError } from '../../shared/errors.ts';
import { type Route, routeCreateSchema } from '../../shared/routes.ts';
import {
  DEFAULT_SETTINGS,
  killSwitchOnSchema,
  type Settings,
  settingsUpdateSchema,
} from '../../shared/settings.ts';

/** A stored route that does not validate: kept as it is, not used. */
export interface UnreadRoute {
  /** The entry as stored, written back unchanged. */
  raw: unknown;
  id: string | null;
  appId: string | null;
  reason: string;
}

/** A stored setting that does not validate (or that this version does not know): kept, not used. */
export interface UnreadSetting {
  field: string;
  value: unknown;
  reason: string;
}

/** The settings that err on the safe side when they cannot be read. */
/**
 * The reason given when the stored routes are not a list at all (the file backends set such a file
 * aside whole, so this is kept only until the next write of routes).
 */
export const NOT_A_LIST = 'the routes are not a list';

const SAFE_WHEN_UNREADABLE: Partial<Settings> = { killSwitch: true, dryRun: true };

export function readRoutes(value: unknown): { routes: Route[]; unread: UnreadRoute[] } {
  const routes: Route[] = [];
  const unread: UnreadRoute[] = [];
  if (value === undefined) return { routes, unread };
  if (!Array.isArray(value)) {
    unread.push({ raw: value, id: null, appId: null, reason: NOT_A_LIST });
    return { routes, unread };
  }
  for (const item of value) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      unread.push({ raw: item, id: null, appId: null, reason: 'not a route object' });
      continue;
    }
    const { id, createdAt, updatedAt, ...fields } = item as Record<string, unknown>;
    const appId = typeof fields.appId === 'string' ? fields.appId : null;
    const parsed = routeCreateSchema.safeParse(fields, { reportInput: true });
    if (typeof id !== 'string' || !id) {
      unread.push({ raw: item, id: null, appId, reason: 'the route has no id' });
    } else if (!parsed.success) {
      unread.push({ raw: item, id, appId, reason: InputError.fromZod(parsed.error).message });
    } else {
      routes.push({
        id,
        ...parsed.data,
        createdAt: typeof createdAt === 'number' ? createdAt : 0,
        updatedAt: typeof updatedAt === 'number' ? updatedAt : 0,
      });
    }
  }
  return { routes, unread };
}

export function readSettings(value: unknown): { settings: Settings; unread: UnreadSetting[] } {
  const settings: Settings = { ...DEFAULT_SETTINGS };
  const unread: UnreadSetting[] = [];
  if (value === undefined) return { settings, unread };
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    unread.push({ field: '', value, reason: 'the settings are not an object' });
    return { settings: { ...settings, ...SAFE_WHEN_UNREADABLE }, unread };
  }
  for (const [field, v] of Object.entries(value)) {
    if (field === 'killSwitchOn') {
      // Who turned the kill switch on: the reaper's own note; one it cannot read is not known.
      const on = killSwitchOnSchema.safeParse(v);
      settings.killSwitchOn = on.success ? on.data : null;
      continue;
    }
    const parsed = settingsUpdateSchema.safeParse({ [field]: v }, { reportInput: true });
    if (parsed.success) {
      Object.assign(settings, parsed.data);
      continue;
    }
    const known = Object.hasOwn(DEFAULT_SETTINGS, field);
    const reason = known
      ? InputError.fromZod(parsed.error)
          .problems.map((p) => p.message)
          .join('; ')
      : 'not a setting of this version';
    unread.push({ field, value: v, reason });
    const safe = SAFE_WHEN_UNREADABLE[field as keyof Settings];
    if (safe !== undefined) Object.assign(settings, { [field]: safe });
  }
  return { settings, unread };
}

/** The dashboard's and the log's words for what could not be read. */
export function unreadRoutesProblem(unread: readonly UnreadRoute[]): string | null {
  if (!unread.length) return null;
  const each = unread.map(
    (u) => `${u.id ?? 'a route without id'}${u.appId ? ` (${u.appId})` : ''}: ${u.reason}`,
  );
  return (
    `${unread.length === 1 ? 'A stored route does' : `${unread.length} stored routes do`} not validate and ` +
    `${unread.length === 1 ? 'is' : 'are'} not used (kept in the settings file as stored): ${each.join('; ')}. ` +
    'No app is released until the route is fixed (updated) or deleted.'
  );
}

export function unreadSettingsProblem(unread: readonly UnreadSetting[]): string | null {
  if (!unread.length) return null;
  const each = unread.map((u) => `${u.field || 'settings'} = ${preview(u.value)}: ${u.reason}`);
  const safe = unread.some((u) => u.field === '' || Object.hasOwn(SAFE_WHEN_UNREADABLE, u.field));
  return (
    `Stored settings do not validate and are not used (kept in the settings file as stored): ${each.join('; ')}.` +
    `${safe ? ' An unreadable kill switch or dry-run is taken as on.' : ''} Set them again to replace them.`
  );
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
