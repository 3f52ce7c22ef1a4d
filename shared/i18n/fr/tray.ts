import type { tray as en } from '../en/tray.ts';
import type { Messages } from '../messages.ts';

export const tray: Messages<typeof en> = {
  title: {
    local: 'Clever Reaper',
    demo: 'Clever Reaper (démo)',
    team: 'Clever Reaper (serveur d’équipe {{host}})',
  },
  line: '{{title}} : {{detail}}',
  team: {
    unauthorized: '{{host}} a refusé le jeton d’administration',
    disconnected: 'déconnecté de {{host}}, reconnexion…',
  },
  status: {
    ok: 'Tout va bien',
    transit: 'Des applications se réveillent ou s’endorment',
    error: 'Une application est en erreur',
    paused: 'En pause : l’arrêt d’urgence est activé',
    dryRun: 'Simulation : rien n’est arrêté',
  },
  noAccount: 'aucun compte connecté',
  tooltip: {
    noAccount: 'aucun compte Clever Cloud connecté',
    apps_one: '{{count, number}} application',
    apps_other: '{{count, number}} applications',
    count: '{{n}} {{state}}',
    killSwitch: 'arrêt d’urgence activé',
    dryRun: 'simulation',
  },
  killSwitchOn: {
    tooltipBy: 'arrêt d’urgence activé depuis {{time}} par {{name}}',
    tooltipSince: 'arrêt d’urgence activé depuis {{time}}',
    menuBy: 'Activé depuis {{time}}, par {{name}} ({{via}})',
    menuSince: 'Activé depuis {{time}}',
  },
  vias: {
    dashboard: 'tableau de bord',
    api: 'API',
    desktop: 'application de bureau',
    tray: 'zone de notification',
    cli: 'ligne de commande',
  },
  states: {
    WaitingForInit: 'Initialisation',
    Up: 'Éveillée',
    WaitingForShutdown: 'S’endort',
    Down: 'En veille',
    WaitingForUp: 'Se réveille',
    Error: 'En erreur',
  },
  menu: {
    inError: 'En erreur ({{count, number}})',
    noCause: 'en erreur',
    reset: 'Réinitialiser',
    showApp: 'Afficher dans le tableau de bord',
    wake: 'Réveiller ({{count, number}} en veille)',
    more: '{{count, number}} de plus : ouvrir le tableau de bord',
    killSwitch: 'Mettre le reaper en pause (arrêt d’urgence)',
    dryRun: 'Simulation',
    openDashboard: 'Ouvrir le tableau de bord',
    preferences: 'Préférences',
    startAtLogin: 'Démarrer à l’ouverture de session',
    notifySleepWake: 'Notifier les mises en veille et les réveils',
    quit: 'Quitter Clever Reaper',
  },
};
