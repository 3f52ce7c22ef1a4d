/** The first-run screen (connect an account, or the demo), the first day in dry-run, the admin-token screen. */
export const firstRun = {
  welcome: 'Welcome to Clever Reaper',
  intro:
    'Clever Reaper puts your idle Clever Cloud apps to sleep, wakes them when someone needs them, and tells you when something goes wrong.',
  connect: {
    title: 'Connect a Clever Cloud account',
    cannot: 'Connecting an account is not possible from here.',
    howTitle: 'Where to get a token',
    how: 'In the Clever Cloud console, open your profile (your name, top right), then <0>API tokens</0>, and create a token named after this reaper. The console asks for your password, and your two-factor code if it is on; an account created with GitHub sets a password first. With clever-tools, <1>clever tokens create clever-reaper</1> does the same.',
    rights:
      'A token acts with your own rights: the reaper reads your organisations and their applications, and starts and stops the ones you give it. Use an account that may manage those applications. A token expires one year after its creation at most (the console asks when): create a new one before it does.',
    cleverTools: 'Use the clever-tools login found on this machine',
    environment: 'Use CLEVER_TOKEN / CLEVER_SECRET',
    token: 'Token',
    secret: 'Secret',
    secretHint: 'With an OAuth token only; an API token has none.',
    checking: 'Checking…',
    submit: 'Connect',
  },
  demo: {
    title: 'Or try the demo',
    text: 'A simulated Clever Cloud with a handful of apps and traffic: every state of the reaper within a few minutes, no account needed.',
    starting: 'Starting the demo…',
    start: 'Try the demo',
  },
  firstDay: {
    title: 'Start with a day in dry-run',
    connected: 'Connected as {{account}}.',
    text: 'In dry-run, the reaper records each sleep it would do, and stops nothing. After a day, Savings shows what it would have saved, app by app.',
    loading: 'Reading the prices of your apps…',
    projection_one:
      'Your managed app costs about {{hourly}} an hour while it runs. Asleep {{hours}} hours a day (a night, 20:00 to 08:00), it would save about {{day}} a day, {{month}} over 30 days.',
    projection_other:
      'Your {{count, number}} managed apps cost about {{hourly}} an hour together while they run. Asleep {{hours}} hours a day (a night, 20:00 to 08:00), they would save about {{day}} a day, {{month}} over 30 days.',
    unpriced:
      'The prices of your apps are not known yet (they are read at the next sweep): the dry-run counts hours asleep, and Savings adds the money once the prices are read.',
    noApps:
      'No app is managed yet: add a route (Routes) or a rule to choose which apps the reaper looks after. The dry-run then shows what they would have saved.',
    failed: 'The projection is not available: {{error}}',
    start: 'Start a day in dry-run',
    notNow: 'Not now',
  },
  token: {
    text: "Sign in with your token: the URL the server printed at start carries the bootstrap token, an admin gives each person their own (Settings, Tokens), and the bootstrap token is in the <0>admin-token</0> file of the server's data directory, or in <1>REAPER_ADMIN_TOKEN</1>. This browser then stays signed in, in every tab, until you sign out.",
    refused: 'The server refused this token (wrong, revoked or expired).',
    ended: 'Your session has ended: sign in again. What you were typing is kept.',
    endedFresh: 'Your session has ended: sign in again.',
    wait: 'Too many wrong tokens from this address: wait {{count, number}} s before trying again.',
    unavailable: 'The server cannot be reached ({{error}}): try again.',
    label: 'Your token',
    open: 'Sign in',
  },
} as const;
