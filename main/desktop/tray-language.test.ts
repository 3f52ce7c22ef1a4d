/** The tray and the notifications in English and in French (the tray's language is the input's). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppView, ReaperEvent } from '../../shared/api.ts';
import type { ReaperState } from '../../shared/domain.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import { BURST_MAX, type NotificationSpec, Notifier } from './notifications.ts';
import { type MenuSpec, trayMenu } from './tray-menu.ts';
import { type TrayApp, type TrayInput, trayStatus, trayTooltip } from './tray-status.ts';

let n = 0;
function app(state: ReaperState, name = `app-${++n}`, cause: string | null = null): TrayApp {
  return { appId: `app_${name}`, name, state, cause };
}

function labels(items: MenuSpec[], prefix = ''): string[] {
  return items.flatMap((item) => {
    if (item.type === 'separator') return [];
    if (item.type === 'submenu')
      return [`${prefix}${item.label}`, ...labels(item.items, `${prefix}${item.label} > `)];
    return [`${prefix}${item.label}`];
  });
}

function menu(input: TrayInput): string[] {
  return labels(
    trayMenu({
      ...input,
      status: trayStatus(input),
      preferences: { startAtLogin: true, notifySleepWake: false },
    }),
  );
}

const cause = 'the app failed to start on clever cloud';

describe('the tray in French', () => {
  const apps = [app('Error', 'billing-preview', cause), app('Down', 'docs'), app('Down', 'api'), app('Up')];

  it('writes the menu in French; the cause of an Error stays as the spec words it', () => {
    expect(
      menu({ mode: 'account', apps, switches: { killSwitch: false, dryRun: false }, language: 'fr' }),
    ).toEqual([
      'Clever Reaper : Une application est en erreur',
      'En erreur (1)',
      'billing-preview',
      `billing-preview > ${cause}`,
      'billing-preview > Réinitialiser',
      'billing-preview > Afficher dans le tableau de bord',
      'Réveiller (2 en veille)',
      'Réveiller (2 en veille) > api',
      'Réveiller (2 en veille) > docs',
      'Mettre le reaper en pause (arrêt d’urgence)',
      'Simulation',
      'Ouvrir le tableau de bord',
      'Préférences',
      'Préférences > Démarrer à l’ouverture de session',
      'Préférences > Notifier les mises en veille et les réveils',
      'Quitter Clever Reaper',
    ]);
  });

  it('and the same menu in English when the language is English or not given', () => {
    const english = menu({
      mode: 'account',
      apps,
      switches: { killSwitch: false, dryRun: false },
      language: 'en',
    });
    expect(english.slice(0, 2)).toEqual(['Clever Reaper: An app is in Error', 'In Error (1)']);
    expect(english).toContain('Wake (2 asleep)');
    expect(menu({ mode: 'account', apps, switches: { killSwitch: false, dryRun: false } })).toEqual(english);
  });

  it('counts the apps per state in French in the tooltip, with the switches, singular and plural', () => {
    expect(
      trayTooltip({ mode: 'demo', apps, switches: { killSwitch: true, dryRun: true }, language: 'fr' }),
    ).toBe(
      'Clever Reaper (démo) : 4 applications (1 En erreur, 1 Éveillée, 2 En veille) · arrêt d’urgence activé · simulation',
    );
    expect(trayTooltip({ mode: 'account', apps: [app('Up')], switches: null, language: 'fr' })).toBe(
      'Clever Reaper : 1 application (1 Éveillée)',
    );
  });

  it('says in French when no account is connected, and when the team server is out of reach', () => {
    const none: TrayInput = { mode: 'disconnected', apps: [], switches: null, language: 'fr' };
    expect(trayTooltip(none)).toBe('Clever Reaper : aucun compte Clever Cloud connecté');
    expect(menu(none)[0]).toBe('Clever Reaper : aucun compte connecté');
    const team: TrayInput = {
      mode: 'account',
      apps: [],
      switches: null,
      team: { host: 'reaper.example.org', connection: 'unauthorized' },
      language: 'fr',
    };
    expect(trayTooltip(team)).toBe(
      'Clever Reaper (serveur d’équipe reaper.example.org) : reaper.example.org a refusé le jeton d’administration',
    );
  });

  it('tells the statuses apart in French (paused, dry-run, in transit, all fine)', () => {
    const first = (input: TrayInput) => menu(input)[0];
    const base = { mode: 'account', apps: [app('Up')], language: 'fr' } as const;
    expect(first({ ...base, switches: { killSwitch: true, dryRun: false } })).toBe(
      'Clever Reaper : En pause : l’arrêt d’urgence est activé',
    );
    expect(first({ ...base, switches: { killSwitch: false, dryRun: true } })).toBe(
      'Clever Reaper : Simulation : rien n’est arrêté',
    );
    expect(first({ ...base, apps: [app('WaitingForUp')], switches: null })).toBe(
      'Clever Reaper : Des applications se réveillent ou s’endorment',
    );
    expect(first({ ...base, switches: null })).toBe('Clever Reaper : Tout va bien');
  });
});

describe('notifications in the language of the moment', () => {
  let shown: NotificationSpec[];
  let language: Language;
  let notifier: Notifier;
  const view = (appId: string, state: ReaperState): AppView =>
    ({ appId, name: appId.replace('app_', ''), state }) as AppView;
  const moved = (appId: string, state: ReaperState): ReaperEvent => ({
    type: 'app',
    app: view(appId, state),
  });
  const alert = (appId: string): ReaperEvent => ({
    type: 'alert',
    appId,
    name: appId.replace('app_', ''),
    cause,
  });

  beforeEach(() => {
    vi.useFakeTimers();
    shown = [];
    language = 'fr';
    notifier = new Notifier({
      port: { show: (s) => shown.push(s) },
      showApp: () => undefined,
      openDashboard: () => undefined,
      notifySleepWake: () => true,
      language: () => language,
    });
  });
  afterEach(() => {
    notifier.dispose();
    vi.useRealTimers();
  });

  it('announce an Error in French with the cause word for word, then in English once it is chosen', () => {
    notifier.handle(alert('app_billing'));
    expect(shown[0]).toMatchObject({ title: 'billing est en erreur', body: cause });
    language = 'en';
    notifier.handle(alert('app_shop'));
    expect(shown[1]).toMatchObject({ title: 'shop is in Error', body: cause });
  });

  it('sum up a burst in French, the names listed', () => {
    const ids = Array.from({ length: BURST_MAX + 7 }, (_, i) => `app_a${i}`);
    for (const id of ids) notifier.handle(alert(id));
    vi.advanceTimersByTime(60_000);
    const summary = shown.at(-1)!;
    expect(summary.title).toBe('7 autres applications sont en erreur');
    expect(summary.body).toBe('a3, a4, a5, a6, a7 et 2 autres');
  });

  it('say in French that an app went to sleep or woke up', () => {
    notifier.handle(moved('app_docs', 'WaitingForShutdown'));
    notifier.handle(moved('app_docs', 'Down'));
    notifier.handle(moved('app_docs', 'WaitingForUp'));
    notifier.handle(moved('app_docs', 'Up'));
    expect(shown.map((s) => s.title)).toEqual(['docs est en veille', 'docs est réveillée']);
  });
});
