/** The Savings view: hours asleep and what they are worth. */
export const savings = {
  title: 'Savings',
  intro:
    'Hours the managed apps spent Asleep, and what that is worth. Going to sleep and Waking up count as awake.',
  refresh: 'Refresh',
  loading: 'Loading the savings…',
  totals: 'Totals',
  window: {
    today: 'Today',
    days7: 'Last 7 days',
    days30: 'Last 30 days',
  },
  asleep: 'asleep · <0>{{saved}}</0> saved',
  wouldHaveSaved: 'Dry-run: would have saved <0>{{saved}}</0> ({{hours}})',
  chartTitle: 'Hours asleep per day, all apps together, last 30 days',
  chartLabel: 'Hours asleep per day over the last {{days}} days, at most {{max}} a day',
  chartDay: '{{day}}: {{asleep}} asleep',
  chartDayProjected: '{{day}}: {{asleep}} asleep, {{projected}} in dry-run',
  today: 'today',
  /** A tick of the chart's hours axis. */
  axisHours: '{{hours}}h',
  legendAsleep: 'asleep',
  legendProjected: 'would have slept (dry-run)',
  price: {
    title: 'How the money is estimated',
    sourcePriceSystem: "Prices: Clever Cloud's price system (euros per hour, counted to the second).",
    sourceMixed:
      "Prices: Clever Cloud's price system where it has the app's plan, else {{fallback}}{{problem}}.",
    sourceFallback: 'Prices: {{fallback}}{{problem}}.',
    sourceNone: 'Prices: none known yet.',
    fallback: 'the flavor price read as drops per 10 minutes × {{eurPerDrop}} € (a fallback)',
    priceSystemProblem: ' (price system: {{problem}})',
    readingDrops: 'read as drops per 10 minutes × {{eurPerDrop}} € per drop',
    readingEuros: 'read as euros per hour',
    note: 'Fallback, for an app the price system does not price: its flavor price from the Clever Cloud API (instance.minFlavor.price), {{reading}}, × its minimum instance count × the hours it was asleep.',
    confirmed: 'Clever Cloud states this unit.',
    unconfirmed:
      'Unconfirmed: Clever Cloud does not state the unit of this price. Public sources read it so; the Terraform provider says "per hour". ',
    changeUnit: 'Change the unit in Settings',
    sources: 'Sources',
    against: 'Against: {{against}}',
    unpriced_one:
      '{{count, number}} app without a known flavor price yet (read at the next sweep): counted in hours, not in money.',
    unpriced_other:
      '{{count, number}} apps without a known flavor price yet (read at the next sweep): counted in hours, not in money.',
  },
  perApp: {
    title: 'Per app',
    none: 'No app under the reaper yet.',
    app: 'App',
    flavor: 'Flavor',
    hourly: '€ / hour',
    today: 'Today',
    days7: '7 days',
    days30: '30 days',
    saved30: 'Saved, 30 days',
    wouldHaveSaved: 'Would have saved',
    released: ' (released)',
    notRead: 'not read yet',
  },
  units: {
    hours: '{{value}} h',
    minutes: '{{value}} min',
  },
} as const;
