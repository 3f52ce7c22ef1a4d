/**
 * The tray says who turned the kill switch on and when (issue 25): in its tooltip and under the
 * menu's kill switch, in English and French, the time in the computer's zone and the tray's language
 * (never ISO); nothing when it is off, only since when when the person is not known.
 */
import { describe, expect, it } from 'vitest';
import type { KillSwitchOn } from '../../shared/people.ts';
import { type MenuSpec, trayMenu } from './tray-menu.ts';
import { killSwitchWho, type TrayInput, trayStatus, trayTooltip } from './tray-status.ts';

const preferences = { startAtLogin: false, notifySleepWake: false };
const AT = new Date(2026, 11, 2, 14, 2).getTime();

function input(on: KillSwitchOn | null, language: 'en' | 'fr' = 'en', killSwitch = true): TrayInput {
  return { mode: 'account', apps: [], switches: { killSwitch, dryRun: false, killSwitchOn: on }, language };
}

const labels = (items: readonly MenuSpec[]): string[] =>
  items.flatMap((i) => ('label' in i && i.label ? [i.label] : []));

describe('who turned the kill switch on, in the tray', () => {
  const alice = { at: AT, by: { name: 'alice', via: 'dashboard' } } as const;
  const time = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit' }).format(AT);
  const heure = new Intl.DateTimeFormat('fr', { hour: '2-digit', minute: '2-digit' }).format(AT);

  it('says since when and by whom, the same day in hours and minutes', () => {
    expect(killSwitchWho(input(alice), 'menu', AT + 60_000)).toBe(`On since ${time}, by alice (dashboard)`);
    expect(killSwitchWho(input(alice, 'fr'), 'menu', AT + 60_000)).toBe(
      `Activé depuis ${heure}, par alice (tableau de bord)`,
    );
    expect(killSwitchWho(input({ at: AT, by: null }), 'tooltip', AT)).toBe(`kill switch on since ${time}`);
    expect(killSwitchWho(input(alice, 'en', false), 'menu', AT)).toBeNull();
    expect(killSwitchWho(input(null), 'menu', AT)).toBeNull();
  });

  it('names the day when it was turned on another day; never an ISO date', () => {
    const later = AT + 3 * 86_400_000;
    for (const language of ['en', 'fr'] as const) {
      const said = killSwitchWho(input(alice, language), 'tooltip', later)!;
      const day = new Intl.DateTimeFormat(language, { weekday: 'short' }).format(AT);
      expect(said).toContain(day);
      expect(said).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    }
  });

  it('puts it in the tooltip and under the menu’s kill switch', () => {
    const i = input(alice);
    expect(trayTooltip(i)).toContain('kill switch on since');
    expect(trayTooltip(i)).toContain('by alice');
    const menu = labels(trayMenu({ ...i, status: trayStatus(i), preferences }));
    const k = menu.indexOf('Pause the reaper (kill switch)');
    expect(k).toBeGreaterThanOrEqual(0);
    expect(menu[k + 1]).toMatch(/^On since .+, by alice \(dashboard\)$/);
    const off = input(null, 'en', false);
    expect(
      labels(trayMenu({ ...off, status: trayStatus(off), preferences })).some((l) =>
        l.startsWith('On since'),
      ),
    ).toBe(false);
  });
});
