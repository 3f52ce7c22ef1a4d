import type { notifications as en } from '../en/notifications.ts';
import type { Messages } from '../messages.ts';

export const notifications: Messages<typeof en> = {
  error: {
    title: '{{name}} est en erreur',
    summary_one: '{{count, number}} autre application est en erreur',
    summary_other: '{{count, number}} autres applications sont en erreur',
  },
  asleep: '{{name}} est en veille',
  awake: '{{name}} est réveillée',
  moves_one: '{{count, number}} autre application s’est endormie ou réveillée',
  moves_other: '{{count, number}} autres applications se sont endormies ou réveillées',
  names: '{{list}} et {{count, number}} autres',
  link: {
    title: 'Clever Reaper ne peut pas ouvrir ce lien',
    body: 'Les liens ressemblent à clever-reaper://open/app_… ou clever-reaper://wake/app_…',
  },
  stillRunning: {
    title: 'Clever Reaper fonctionne toujours',
    body: 'Il continue de surveiller vos applications depuis la zone de notification. Quittez-le depuis son menu.',
  },
  failed: {
    reset: 'Impossible de réinitialiser {{name}}',
    wake: 'Impossible de réveiller {{name}}',
    killSwitch: 'Impossible de changer l’arrêt d’urgence',
    dryRun: 'Impossible de changer la simulation',
    startAtLogin: 'Impossible d’activer le démarrage à l’ouverture de session',
    stopStartAtLogin: 'Impossible de désactiver le démarrage à l’ouverture de session',
  },
};
