import type { waking as en } from '../en/waking.ts';
import type { Messages } from '../messages.ts';

export const waking: Messages<typeof en> = {
  title: 'Réveil de {{name}}…',
  heading: 'Réveil de {{name}}',
  intro:
    'Elle était en veille pour économiser des ressources. Cette page se recharge d’elle-même quand elle est prête.',
  progress: 'Progression du démarrage',
  expected: 'prête d’habitude en {{duration}} environ',
  elapsed: '{{duration}} écoulées',
  askedAt: 'demandé à {{time}}',
  failed: 'Le démarrage a échoué : {{cause}}. Rechargez la page pour accéder directement à l’application.',
  states: {
    WaitingForInit: 'Initialisation',
    Up: 'Éveillée',
    WaitingForShutdown: 'S’endort',
    Down: 'En veille',
    WaitingForUp: 'Se réveille',
    Error: 'En erreur',
  },
};
