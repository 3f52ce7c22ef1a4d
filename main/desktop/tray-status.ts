/**
 * The tray's one aggregate status (after Podman Desktop's tray-animate-icon.ts): it picks the icon,
 * and the tooltip says the counts behind it. Pure: the tray wrapper only draws what this returns.
 *
 * Order of precedence, most urgent first: an app in Error (red) > the kill switch (the reaper is
 * paused: a pause must stay visibly on) > dry-run > apps in transit > all fine.
 */
import type { TFunction } from 'i18next';
import type { SessionMode } from '../../shared/api.ts';
import { assertNever, isInTransit, type ReaperState, STATES_BY_URGENCY } from '../../shared/domain.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import { translator } from '../../shared/i18n/translator.ts';
import { type KillSwitchOn, type Role, roleAllows } from '../../shared/people.ts';
import type { TeamConnection } from '../../shared/team-console.ts';

export const TRAY_STATUSES = ['ok', 'transit', 'error', 'paused', 'dry-run'] as const;
export type TrayStatus = (typeof TRAY_STATUSES)[number];

/** What the tray knows of an app. */
export interface TrayApp {
  appId: string;
  name: string;
  state: ReaperState;
  cause: string | null;
}

export interface TrayInput {
  mode: SessionMode;
  apps: readonly TrayApp[];
  switches: { killSwitch: boolean; dryRun: boolean; killSwitchOn?: KillSwitchOn | null } | null;
  /** Team mode: the server followed, and whether its event stream is up. */
  team?: { host: string; connection: TeamConnection; who?: { name: string; role: Role } | null } | null;
  /** The language of the menu and tooltip (the operator's choice, else the system's); English by default. */
  language?: Language;
}

/** The tray's words in the input's language. */
export function trayWords(input: { language?: Language }): TFunction<'tray'> {
  return translator(input.language ?? 'en', 'tray');
}

/** Team mode without the server's stream: what the tray shows may be out of date. */
export function teamTrouble(input: TrayInput): string | null {
  const team = input.team;
  if (!team || team.connection === 'live') return null;
  const t = trayWords(input);
  return team.connection === 'unauthorized'
    ? t('team.unauthorized', { host: team.host })
    : t('team.disconnected', { host: team.host });
}

export function trayTitle(input: TrayInput): string {
  const t = trayWords(input);
  if (input.team) return t('title.team', { host: input.team.host });
  return input.mode === 'demo' ? t('title.demo') : t('title.local');
}

export function trayStatus(input: TrayInput): TrayStatus {
  // Out of touch with the team server: grey, as paused (what the server does is not seen).
  if (teamTrouble(input)) return 'paused';
  if (input.apps.some((a) => a.state === 'Error')) return 'error';
  if (input.switches?.killSwitch) return 'paused';
  if (input.switches?.dryRun) return 'dry-run';
  if (input.apps.some((a) => isInTransit(a.state))) return 'transit';
  return 'ok';
}

/**
 * What the person signed in on a team server may not do from the tray, and why: null when they may
 * do it all (or the tray follows this computer's own engine, the user's own).
 */
export function trayRefusal(input: TrayInput, need: Role): string | null {
  const who = input.team?.who;
  if (!who || roleAllows(who.role, need)) return null;
  const t = trayWords(input);
  return t('team.needs', { need: t(`roles.${need}`), role: t(`roles.${who.role}`) });
}

/** "Signed in as alice (viewer)" on a team server; null otherwise. */
export function signedInAs(input: TrayInput): string | null {
  const who = input.team?.who;
  return who
    ? trayWords(input)('team.signedInAs', { name: who.name, role: trayWords(input)(`roles.${who.role}`) })
    : null;
}

/** Windows cuts a tray tooltip at 127 characters; keep every platform under it. */
export const TOOLTIP_MAX = 127;

export function trayTooltip(input: TrayInput): string {
  const t = trayWords(input);
  const title = trayTitle(input);
  const trouble = teamTrouble(input);
  if (trouble) return clip(t('line', { title, detail: trouble }));
  if (input.mode === 'disconnected') return clip(t('line', { title, detail: t('tooltip.noAccount') }));
  const counts = new Map<ReaperState, number>();
  for (const app of input.apps) counts.set(app.state, (counts.get(app.state) ?? 0) + 1);
  const parts = STATES_BY_URGENCY.filter((s) => counts.get(s)).map((s) =>
    t('tooltip.count', { n: counts.get(s) ?? 0, state: t(`states.${s}`) }),
  );
  const flags = [
    input.switches?.killSwitch ? (killSwitchWho(input, 'tooltip') ?? t('tooltip.killSwitch')) : null,
    input.switches?.dryRun ? t('tooltip.dryRun') : null,
    input.team?.who
      ? t('tooltip.as', { name: input.team.who.name, role: t(`roles.${input.team.who.role}`) })
      : null,
  ].filter(Boolean);
  const apps = t('tooltip.apps', { count: input.apps.length });
  const detail = `${apps}${parts.length ? ` (${parts.join(', ')})` : ''}${
    flags.length ? ` · ${flags.join(' · ')}` : ''
  }`;
  return clip(t('line', { title, detail }));
}

/**
 * Who turned the kill switch on and when, in the tray's language and the computer's time ("kill switch
 * on since 14:02 by alice"); null when it is off or the reaper does not know (an older version's).
 */
export function killSwitchWho(input: TrayInput, where: 'tooltip' | 'menu', now = Date.now()): string | null {
  const on = input.switches?.killSwitch ? input.switches.killSwitchOn : null;
  if (!on) return null;
  const t = trayWords(input);
  const sameDay = new Date(on.at).toDateString() === new Date(now).toDateString();
  const time = new Intl.DateTimeFormat(input.language ?? 'en', {
    ...(sameDay ? {} : { weekday: 'short', day: 'numeric', month: 'short' }),
    hour: '2-digit',
    minute: '2-digit',
  }).format(on.at);
  if (!on.by) return t(`killSwitchOn.${where}Since`, { time });
  return t(`killSwitchOn.${where}By`, { time, name: on.by.name, via: t(`vias.${on.by.via}`) });
}

function clip(text: string): string {
  return text.length <= TOOLTIP_MAX ? text : `${text.slice(0, TOOLTIP_MAX - 1)}…`;
}

/** The words of a status, for the menu's first line and screen readers. */
export function statusLabel(status: TrayStatus, language: Language = 'en'): string {
  const t = translator(language, 'tray');
  switch (status) {
    case 'ok':
      return t('status.ok');
    case 'transit':
      return t('status.transit');
    case 'error':
      return t('status.error');
    case 'paused':
      return t('status.paused');
    case 'dry-run':
      return t('status.dryRun');
    default:
      return assertNever(status);
  }
}
