/** The tray icon's menu and tooltip (desktop app). */
export const tray = {
  title: {
    local: 'Clever Reaper',
    demo: 'Clever Reaper (demo)',
    team: 'Clever Reaper (team server {{host}})',
  },
  /** The first line of the menu and the tooltip: "Clever Reaper: All fine". */
  line: '{{title}}: {{detail}}',
  team: {
    unauthorized: '{{host}} refused the admin token',
    disconnected: 'disconnected from {{host}}, reconnecting…',
    /** Who the desktop is signed in as on the team server (its own token), and what a role may not do. */
    signedInAs: 'Signed in as {{name}} ({{role}})',
    needs: 'Read-only here: this needs the {{need}} role, you are {{role}}',
  },
  roles: {
    viewer: 'viewer',
    operator: 'operator',
    admin: 'admin',
  },
  status: {
    ok: 'All fine',
    transit: 'Apps waking up or going to sleep',
    error: 'An app is in Error',
    paused: 'Paused: the kill switch is on',
    dryRun: 'Dry-run: nothing is stopped',
  },
  noAccount: 'no account connected',
  tooltip: {
    noAccount: 'no Clever Cloud account connected',
    apps_one: '{{count, number}} app',
    apps_other: '{{count, number}} apps',
    count: '{{n}} {{state}}',
    killSwitch: 'kill switch on',
    dryRun: 'dry-run',
    as: '{{name}}, {{role}}',
  },
  /** Who turned the kill switch on, and when (the computer's time). */
  killSwitchOn: {
    tooltipBy: 'kill switch on since {{time}} by {{name}}',
    tooltipSince: 'kill switch on since {{time}}',
    menuBy: 'On since {{time}}, by {{name}} ({{via}})',
    menuSince: 'On since {{time}}',
  },
  /** Through what a person turned it on. */
  vias: {
    dashboard: 'dashboard',
    api: 'API',
    desktop: 'desktop app',
    tray: 'tray',
    cli: 'command line',
  },
  /** The states as the console column of the lifecycle names them. */
  states: {
    WaitingForInit: 'Initializing',
    Up: 'Up',
    WaitingForShutdown: 'Going to sleep',
    Down: 'Asleep',
    WaitingForUp: 'Waking up',
    Error: 'Error',
  },
  menu: {
    inError: 'In Error ({{count, number}})',
    noCause: 'in Error',
    reset: 'Reset',
    showApp: 'Show in the dashboard',
    wake: 'Wake ({{count, number}} asleep)',
    more: '{{count, number}} more: open the dashboard',
    killSwitch: 'Pause the reaper (kill switch)',
    dryRun: 'Dry-run',
    openDashboard: 'Open the dashboard',
    preferences: 'Preferences',
    startAtLogin: 'Start at login',
    notifySleepWake: 'Notify on sleep and wake',
    quit: 'Quit Clever Reaper',
  },
} as const;
