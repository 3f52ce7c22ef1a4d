import type { shell as en } from '../en/shell.ts';
import type { Messages } from '../messages.ts';

export const shell: Messages<typeof en> = {
  loading: 'Chargement…',
  loadingReaper: 'Chargement du reaper…',
  failed: {
    title: 'Le reaper est injoignable',
    retry: 'Réessayer',
  },
  skip: 'Aller au contenu',
  nav: {
    label: 'Vues',
    apps: 'Applications',
    history: 'Historique',
    savings: 'Économies',
    routes: 'Routes',
    audit: 'Audit',
    settings: 'Paramètres',
  },
  summary: {
    label: 'Applications par état',
    state: '{{state}} :',
    show: 'Afficher les applications {{state}}',
  },
  where: {
    demo: 'Démo',
    demoScaled: 'Démo · temps ×{{scale}}',
    demoTitle: 'Le simulateur intégré tient lieu de Clever Cloud',
    local: 'En local',
    localTitle: 'Le moteur de cet ordinateur',
    team: 'Serveur d’équipe · {{host}}',
    teamTitle: 'Les applications, l’icône de la barre des tâches et les notifications viennent de {{url}}',
    server: 'Serveur · {{host}}',
    serverTitle: 'Le reaper de {{host}}',
    accountTitle: 'Le compte Clever Cloud au nom duquel le reaper agit : {{account}}',
    noAccount: 'Aucun compte',
    unnamed: 'Compte connecté',
    unchecked: 'Compte pas encore vérifié',
  },
  connection: {
    unchecked: 'Pas encore vérifié',
  },
  kill: {
    name: 'Arrêt d’urgence',
    stateOn: ' : activé',
    stateOff: ' : désactivé',
    titleOn: 'Aucune application n’est mise en veille : cliquez pour désactiver l’arrêt d’urgence',
    titleOff: 'Cliquez pour suspendre toutes les mises en veille (les réveils continuent)',
    confirmOnTitle: 'Activer l’arrêt d’urgence ?',
    confirmOnBody:
      'Tant qu’il est activé, aucune route ni règle ne met d’application en veille. Les applications déjà en veille y restent, et les réveils continuent (une requête, une plage d’éveil obligatoire, Réveiller). Désactivez-le depuis ce même bouton pour reprendre.',
    confirmOffTitle: 'Désactiver l’arrêt d’urgence ?',
    confirmOffBody:
      'Le reaper remet en veille les applications inactives, comme le prévoient leurs routes et leurs règles.',
    confirmOffDryRun:
      'Le mode simulation est activé : les mises en veille sont seulement notées dans l’historique, rien n’est arrêté.',
    shared: 'C’est l’arrêt d’urgence du reaper de {{host}} : il s’applique à tous ceux qui l’utilisent.',
    turnOn: 'Activer l’arrêt d’urgence',
    turnOff: 'Désactiver l’arrêt d’urgence',
    cancel: 'Annuler',
  },
  banner: {
    killSwitch: 'Arrêt d’urgence activé :',
    killSwitchText: 'aucune application n’est mise en veille. Les réveils continuent.',
    killSwitchBy: 'Activé depuis {{time}}, par {{name}} ({{via}}).',
    killSwitchSince: 'Activé depuis {{time}}.',
    killSwitchOff: 'Désactiver l’arrêt d’urgence',
    dryRun: 'Simulation :',
    dryRunText: 'chaque mise en veille que le reaper ferait est notée dans l’historique ; rien n’est arrêté.',
    dryRunOff: 'Désactiver la simulation',
    unchecked: 'Identifiants Clever Cloud pas encore vérifiés :',
    uncheckedText:
      'ils sont enregistrés, mais Clever Cloud n’a pas pu confirmer qu’ils sont valides ({{problem}}). Le reaper réessaie en lisant vos applications ; d’ici là, ce que vous voyez n’est pas confirmé. Vérifiez que cette machine joint Clever Cloud, puis reconnectez-vous dans les Paramètres pour les vérifier tout de suite.',
    uncheckedNoProblem: 'pas encore de réponse',
    openSettings: 'Ouvrir les Paramètres',
    teamRefused:
      'Le serveur d’équipe {{server}} a refusé le jeton d’administration : reconnectez-vous avec un jeton valide (Paramètres, Serveur d’équipe).',
    teamLost:
      'Déconnecté du serveur d’équipe {{server}} : reconnexion… (ce que vous voyez n’est peut-être plus à jour)',
    refused:
      'Le jeton d’administration a été refusé : ouvrez l’URL affichée par le serveur, ou collez de nouveau le jeton.',
    lost: 'La connexion au reaper est perdue : reconnexion… (ce que vous voyez n’est peut-être plus à jour)',
    unreachable: 'Clever Cloud n’a pas pu être lu pour {{owner}} : {{message}}',
  },
  toasts: {
    label: 'Notifications',
    dismiss: 'Fermer',
    released: '{{name}} est libérée : plus aucune route ni règle active ne la gère',
    alert: '{{name}} est en erreur : {{cause}}',
    alertMany_one: '{{count, number}} application est passée en erreur : {{names}}',
    alertMany_other: '{{count, number}} applications sont passées en erreur : {{names}}',
    releasedMany_one: '{{count, number}} application est libérée : {{names}}',
    releasedMany_other:
      '{{count, number}} applications sont libérées (plus aucune route ni règle active ne les gère) : {{names}}',
    repeated_one: '{{text}}',
    repeated_other: '{{text}} (×{{count, number}})',
    more_one: 'et {{count, number}} autre notification',
    more_other: 'et {{count, number}} autres notifications',
    dismissAll: 'Tout fermer',
    unknownApp: 'Aucune application gérée {{appId}} ici : le lien vient peut-être d’un autre reaper',
    refreshFailed: 'impossible d’actualiser : {{error}}',
  },
  session: {
    signedInAs: 'Connecté :',
    who: '{{name}} · {{role}}',
    signedInTitle: 'Ce navigateur est connecté au serveur en tant que {{name}}, avec le rôle {{role}}',
    desktopTitle:
      'Cette application est connectée au serveur d’équipe {{server}} en tant que {{name}}, avec le rôle {{role}}',
    signOut: 'Se déconnecter',
    signOutFailed: 'impossible de se déconnecter : {{error}}',
  },
};
