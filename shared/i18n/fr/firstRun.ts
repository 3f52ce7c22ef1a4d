import type { firstRun as en } from '../en/firstRun.ts';
import type { Messages } from '../messages.ts';

export const firstRun: Messages<typeof en> = {
  welcome: 'Bienvenue dans Clever Reaper',
  intro:
    'Clever Reaper met en veille vos applications Clever Cloud inactives, les réveille quand quelqu’un en a besoin, et vous prévient quand quelque chose ne va pas.',
  connect: {
    title: 'Connecter un compte Clever Cloud',
    cannot: 'Il n’est pas possible de connecter un compte d’ici.',
    howTitle: 'Où obtenir un jeton',
    how: 'Dans la console Clever Cloud, ouvrez votre profil (votre nom, en haut à droite), puis <0>Tokens d’API</0>, et créez un jeton au nom de ce reaper. La console demande votre mot de passe, et votre code d’authentification à deux facteurs s’il est activé ; un compte créé avec GitHub définit d’abord un mot de passe. Avec clever-tools, <1>clever tokens create clever-reaper</1> fait la même chose.',
    rights:
      'Un jeton agit avec vos propres droits : le reaper lit vos organisations et leurs applications, et démarre et arrête celles que vous lui confiez. Utilisez un compte autorisé à gérer ces applications. Un jeton expire au plus tard un an après sa création (la console demande quand) : créez-en un nouveau avant.',
    cleverTools: 'Utiliser la connexion clever-tools trouvée sur cette machine',
    environment: 'Utiliser CLEVER_TOKEN / CLEVER_SECRET',
    token: 'Jeton',
    secret: 'Secret',
    secretHint: 'Avec un jeton OAuth seulement ; un jeton d’API n’en a pas.',
    checking: 'Vérification…',
    submit: 'Se connecter',
  },
  demo: {
    title: 'Ou essayez la démo',
    text: 'Un Clever Cloud simulé, avec quelques applications et du trafic : tous les états du reaper en quelques minutes, sans compte.',
    starting: 'Démarrage de la démo…',
    start: 'Essayer la démo',
  },
  firstDay: {
    title: 'Commencez par une journée en simulation',
    connected: 'Connecté en tant que {{account}}.',
    text: 'En simulation, le reaper note chaque mise en veille qu’il ferait, et n’arrête rien. Au bout d’une journée, Économies montre ce qu’il aurait fait économiser, application par application.',
    loading: 'Lecture des prix de vos applications…',
    projection_one:
      'Votre application gérée coûte environ {{hourly}} de l’heure quand elle tourne. En veille {{hours}} heures par jour (une nuit, de 20:00 à 08:00), elle économiserait environ {{day}} par jour, {{month}} sur 30 jours.',
    projection_other:
      'Vos {{count, number}} applications gérées coûtent ensemble environ {{hourly}} de l’heure quand elles tournent. En veille {{hours}} heures par jour (une nuit, de 20:00 à 08:00), elles économiseraient environ {{day}} par jour, {{month}} sur 30 jours.',
    unpriced:
      'Les prix de vos applications ne sont pas encore connus (ils sont lus au prochain passage) : la simulation compte les heures de veille, et Économies ajoute les montants une fois les prix lus.',
    noApps:
      'Aucune application n’est encore gérée : ajoutez une route (Routes) ou une règle pour choisir les applications dont le reaper s’occupe. La simulation montre ensuite ce qu’elles auraient fait économiser.',
    failed: 'L’estimation n’est pas disponible : {{error}}',
    start: 'Commencer une journée en simulation',
    notNow: 'Pas maintenant',
  },
  token: {
    text: 'Connectez-vous avec votre jeton : l’URL affichée par le serveur au démarrage contient le jeton d’amorçage, un admin donne à chacun le sien (Réglages, Jetons), et le jeton d’amorçage se trouve dans le fichier <0>admin-token</0> du répertoire de données du serveur, ou dans <1>REAPER_ADMIN_TOKEN</1>. Ce navigateur reste ensuite connecté, dans chaque onglet, jusqu’à la déconnexion.',
    refused: 'Le serveur a refusé ce jeton (erroné, révoqué ou expiré).',
    ended: 'Votre session a pris fin : reconnectez-vous. Ce que vous saisissiez est conservé.',
    endedFresh: 'Votre session a pris fin : reconnectez-vous.',
    wait: 'Trop de jetons erronés depuis cette adresse : attendez {{count, number}} s avant de réessayer.',
    unavailable: 'Le serveur est injoignable ({{error}}) : réessayez.',
    label: 'Votre jeton',
    open: 'Se connecter',
  },
};
