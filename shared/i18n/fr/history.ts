import type { history as en } from '../en/history.ts';
import type { Messages } from '../messages.ts';

export const history: Messages<typeof en> = {
  title: 'Historique',
  intro:
    'Chaque transition et chaque action de chaque application, libérées comprises : quand, pourquoi et qui a agi. Conservé {{days}} jours (voir les Paramètres).',
  exporting: 'Export…',
  downloadCsv: 'Télécharger en CSV',
  downloadJson: 'Télécharger en JSON',
  downloadHint: 'Le téléchargement contient exactement les entrées affichées avec ces filtres.',
  exportFailed: 'l’export a échoué : {{error}}',
  filters: {
    label: 'Filtres',
    app: 'Application',
    allApps: 'Toutes les applications',
    state: 'État',
    cause: 'Cause d’erreur',
    actor: 'Qui a agi',
    kind: 'Type',
    from: 'Du',
    to: 'Au',
    any: 'Tous',
    anyone: 'N’importe qui',
    clear: 'Effacer les filtres',
    fromAfterTo:
      '« Du » ({{from}}) est après « Au » ({{to}}) : choisissez un début plus tôt ou une fin plus tard. Les filtres ne s’appliquent pas d’ici là.',
  },
  cause: {
    stopTimeout: 'ne s’est pas arrêtée à temps',
    startTimeout: 'n’a pas démarré à temps',
    startFailed: 'échec du démarrage',
    unsafeLastDeployment: 'dernier déploiement douteux',
    neverDeployed: 'jamais déployée',
    unexpectedState: 'état Clever Cloud inattendu',
  },
  fresh_one: '{{count, number}} nouvelle entrée depuis le chargement de cette page.',
  fresh_other: '{{count, number}} nouvelles entrées depuis le chargement de cette page.',
  showThem: 'Les afficher',
  table: {
    caption: 'Historique, du plus récent au plus ancien',
    time: 'Heure',
    app: 'Application',
    what: 'Quoi',
    who: 'Qui',
    why: 'Pourquoi',
    onlyThisApp: 'Afficher cette application seulement',
    released: ' (libérée)',
    releasedTo: 'libérée',
  },
  empty: {
    nothingYet:
      'Rien ne s’est encore passé. Chaque transition et chaque action d’une application est notée ici dès qu’une route ou une règle la confie au reaper.',
    noMatch: 'Aucune entrée ne correspond à ces filtres.',
  },
  pager: {
    label: 'Pages',
    newer: '← Plus récentes',
    older: 'Plus anciennes →',
    page: 'Page {{page}}',
  },
};
