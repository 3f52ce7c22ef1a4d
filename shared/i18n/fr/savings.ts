import type { savings as en } from '../en/savings.ts';
import type { Messages } from '../messages.ts';

export const savings: Messages<typeof en> = {
  title: 'Économies',
  intro:
    'Les heures passées en veille par les applications gérées, et ce qu’elles valent. La mise en veille et le réveil comptent comme du temps éveillé.',
  refresh: 'Actualiser',
  loading: 'Chargement des économies…',
  totals: 'Totaux',
  window: {
    today: 'Aujourd’hui',
    days7: '7 derniers jours',
    days30: '30 derniers jours',
  },
  asleep: 'en veille · <0>{{saved}}</0> économisés',
  wouldHaveSaved: 'Simulation : aurait économisé <0>{{saved}}</0> ({{hours}})',
  chartTitle: 'Heures de veille par jour, toutes applications confondues, 30 derniers jours',
  chartLabel: 'Heures de veille par jour sur les {{days}} derniers jours, au plus {{max}} par jour',
  chartDay: '{{day}} : {{asleep}} en veille',
  chartDayProjected: '{{day}} : {{asleep}} en veille, {{projected}} en simulation',
  today: 'aujourd’hui',
  axisHours: '{{hours}} h',
  legendAsleep: 'en veille',
  legendProjected: 'aurait dormi (simulation)',
  price: {
    title: 'Comment l’argent est estimé',
    sourcePriceSystem: 'Prix : le système de prix de Clever Cloud (euros par heure, comptés à la seconde).',
    sourceMixed:
      'Prix : le système de prix de Clever Cloud quand il connaît l’offre de l’application, sinon {{fallback}}{{problem}}.',
    sourceFallback: 'Prix : {{fallback}}{{problem}}.',
    sourceNone: 'Prix : aucun connu pour le moment.',
    fallback: 'le prix du flavor lu en drops par 10 minutes × {{eurPerDrop}} € (un repli)',
    priceSystemProblem: ' (système de prix : {{problem}})',
    readingDrops: 'lu en drops par 10 minutes × {{eurPerDrop}} € par drop',
    readingEuros: 'lu en euros par heure',
    note: 'Repli, pour une application que le système de prix ne chiffre pas : le prix de son flavor donné par l’API Clever Cloud (instance.minFlavor.price), {{reading}}, × son nombre minimal d’instances × ses heures de veille.',
    confirmed: 'Clever Cloud indique cette unité.',
    unconfirmed:
      'Non confirmé : Clever Cloud n’indique pas l’unité de ce prix. Des sources publiques le lisent ainsi ; le provider Terraform parle de « par heure ». ',
    changeUnit: 'Changer l’unité dans les Paramètres',
    sources: 'Sources',
    against: 'Contre : {{against}}',
    unpriced_one:
      '{{count, number}} application sans prix de flavor connu pour le moment (lu au prochain passage) : comptée en heures, pas en argent.',
    unpriced_other:
      '{{count, number}} applications sans prix de flavor connu pour le moment (lu au prochain passage) : comptées en heures, pas en argent.',
  },
  perApp: {
    title: 'Par application',
    none: 'Aucune application n’est encore gérée par le reaper.',
    app: 'Application',
    flavor: 'Flavor',
    hourly: '€ / heure',
    today: 'Aujourd’hui',
    days7: '7 jours',
    days30: '30 jours',
    saved30: 'Économisé, 30 jours',
    wouldHaveSaved: 'Aurait économisé',
    released: ' (libérée)',
    notRead: 'pas encore lu',
  },
  units: {
    hours: '{{value}} h',
    minutes: '{{value}} min',
  },
};
