/**
 * The tray's one aggregate status (after Podman Desktop's tray-animate-icon.ts): it picks the icon,
 * and the tooltip says the counts behind it. Pure: the tray wrapper only draws what this returns.
 *
 * Order of precedence, most urgent first: an app in Error (red) > the kill switch (the reaper is
 * paused: a pause must stay visibly on) > dry-run > apps in transit > all fine.
 */
import type { SessionMode } from '../../shared/api.ts';
import {
  assertNever,
  CONSOLE_LABELS,
  isInTransit,
  type ReaperState,
  STATES_BY_URGENCY,
} from '../../shared/domain.ts';
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
  switches: { killSwitch: boolean; dryRun: boolean } | null;
  /** Team mode: the server followed, and whether its event stream is up. */
  team?: { host: string; connection: TeamConnection } | null;
}

/** Team mode without the server's stream: what the tray shows may be out of date. */
export function teamTrouble(input: TrayInput): string | null {
  const team = input.team;
  if (!team || team.connection === 'live') return null;
  return team.connection === 'unauthorized'
    ? `${team.host} refused the admin token`
    : `disconnected from ${team.host}, reconnecting…`;
}

export function trayTitle(input: TrayInput): string {
  if (input.team) return `Clever Reaper (team server ${input.team.host})`;
  return input.mode === 'demo' ? 'Clever Reaper (demo)' : 'Clever Reaper';
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

/** Windows cuts a tray tooltip at 127 characters; keep every platform under it. */
export const TOOLTIP_MAX = 127;

export function trayTooltip(input: TrayInput): string {
  const title = trayTitle(input);
  const trouble = teamTrouble(input);
  if (trouble) return clip(`${title}: ${trouble}`);
  if (input.mode === 'disconnected') return clip(`${title}: no Clever Cloud account connected`);
  const counts = new Map<ReaperState, number>();
  for (const app of input.apps) counts.set(app.state, (counts.get(app.state) ?? 0) + 1);
  const parts = STATES_BY_URGENCY.filter((s) => counts.get(s)).map(
    (s) => `${counts.get(s)} ${CONSOLE_LABELS[s]}`,
  );
  const flags = [
    input.switches?.killSwitch ? 'kill switch on' : null,
    input.switches?.dryRun ? 'dry-run' : null,
  ].filter(Boolean);
  const apps = input.apps.length === 1 ? '1 app' : `${input.apps.length} apps`;
  const text = `${title}: ${apps}${parts.length ? ` (${parts.join(', ')})` : ''}${
    flags.length ? ` · ${flags.join(' · ')}` : ''
  }`;
  return clip(text);
}

function clip(text: string): string {
  return text.length <= TOOLTIP_MAX ? text : `${text.slice(0, TOOLTIP_MAX - 1)}…`;
}

/** The words of a status, for the menu's first line and screen readers. */
export function statusLabel(status: TrayStatus): string {
  switch (status) {
    case 'ok':
      return 'All fine';
    case 'transit':
      return 'Apps waking up or going to sleep';
    case 'error':
      return 'An app is in Error';
    case 'paused':
      return 'Paused: the kill switch is on';
    case 'dry-run':
      return 'Dry-run: nothing is stopped';
    default:
      return assertNever(status);
  }
}
