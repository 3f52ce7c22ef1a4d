/** Words used across the dashboard, the tray and the notifications. */
export const common = {
  language: {
    label: 'Language',
    system: 'As the system ({{language}})',
  },
  /** The six Clever Reaper states, as the dashboard shows them (the lifecycle's "Console" column). */
  states: {
    WaitingForInit: 'Initializing',
    Up: 'Up',
    WaitingForShutdown: 'Going to sleep',
    Down: 'Asleep',
    WaitingForUp: 'Waking up',
    Error: 'Error',
  },
  /** A Clever Cloud state as the Clever Cloud console says it (renderer/lib/clever-status.ts). */
  cleverStatus: {
    notRead: 'Not read yet',
    stopped: 'Stopped',
    starting: 'Starting',
    startFailed: 'Start failed',
    restarting: 'Restarting',
    restartFailed: 'Running, last deployment failed',
    running: 'Running',
    moderated: 'Moderated',
    defaultOfPayment: 'Payment default',
    unknown: 'Unknown state',
  },
  /** The raw Clever Cloud value, on hover. */
  cleverRaw: {
    notRead: 'not read yet',
    withDeployment: '{{state}}, last deployment {{deployment}}',
  },
  /** The dashboard's connection to the reaper. */
  connection: {
    live: 'Live',
    connecting: 'Connecting…',
    reconnecting: 'Reconnecting…',
    unauthorized: 'Token refused',
  },
  /** The question before a form with unsaved changes is left (its body is the form's own). */
  discard: {
    title: 'Discard changes?',
  },
  /** Generic buttons and their busy forms. */
  buttons: {
    save: 'Save',
    saving: 'Saving…',
    saved: 'Saved.',
    cancel: 'Cancel',
    close: 'Close',
    delete: 'Delete',
    edit: 'Edit',
    add: 'Add',
    remove: 'Remove',
    retry: 'Retry',
    apply: 'Apply',
    clear: 'Clear',
    download: 'Download',
    back: 'Back',
    next: 'Next',
    done: 'Done',
    ok: 'OK',
    yes: 'Yes',
    no: 'No',
    confirm: 'Confirm',
    copy: 'Copy',
    show: 'Show',
    hide: 'Hide',
    discard: 'Discard',
    keepEditing: 'Keep editing',
  },
  /** What acts on an app, idle and busy. */
  actions: {
    reset: 'Reset',
    resetting: 'Resetting…',
    wake: 'Wake',
    waking: 'Waking…',
    release: 'Disable and release',
    releasing: 'Disabling…',
  },
  /** Where a request came from (TrafficSource). */
  sources: {
    'access-log': 'access log',
    'wake-proxy': 'wake proxy',
    dashboard: 'dashboard',
    tray: 'tray',
    'admin-api': 'admin API',
    link: 'link',
  },
  /** Who made a change (Actor). */
  actors: {
    reaper: 'reaper',
    request: 'request',
    schedule: 'schedule',
    outside: 'outside',
    operator: 'operator',
  },
  /** Through what a person asked (a history entry's or an audit entry's `via`). */
  vias: {
    dashboard: 'dashboard',
    api: 'API',
    desktop: 'desktop app',
    tray: 'tray',
    cli: 'command line',
  },
  /** Who asked for a manual action: "by alice · dashboard". */
  byPerson: 'by {{name}} · {{via}}',
  /** What a history entry that is not a plain transition says it is (HistoryKind). */
  historyKinds: {
    transition: 'transition',
    'stop-asked': 'stop sent',
    'start-asked': 'start sent',
    'restart-asked': 'start sent again',
    'would-sleep': 'would sleep (dry-run)',
    'would-wake': 'would wake (dry-run)',
    release: 'released',
    reset: 'reset',
    'call-failed': 'call failed',
    'keep-awake': 'keep awake',
    'first-answer': 'first answer',
  },
  /** Short names of the Error causes (the causes themselves stay word for word). */
  /** The Error causes of the lifecycle spec, whole (English: the spec's words, as the API keeps them). */
  causeTexts: {
    stopTimeout: 'the app did not stop within the fail timeout',
    startTimeout: 'the app did not start within the fail timeout',
    startFailed: 'the app failed to start on clever cloud',
    unsafeLastDeployment:
      "the last deployment of the app is '{{deploymentState}}', it cannot be put to sleep safely",
    neverDeployed: 'the app was never deployed, it cannot be started',
    unexpectedState: "unexpected clever cloud state '{{cleverState}}'",
  },
  /** Said beside a translated cause: the original, as the API and the history keep it. */
  causeOriginal: 'Original (as recorded): {{cause}}',
  causes: {
    stopTimeout: 'did not stop in time',
    startTimeout: 'did not start in time',
    startFailed: 'failed to start',
    unsafeLastDeployment: 'unsafe last deployment',
    neverDeployed: 'never deployed',
    unexpectedState: 'unexpected Clever Cloud state',
  },
  /** Short units, after a number (durations are written "3 h 10 min"). */
  /** The name of the operator's own space, as the Clever Cloud console calls it. */
  personalSpace: 'Personal space',
  units: {
    seconds: '{{count, number}} s',
    minutes: '{{count, number}} min',
    hours: '{{count, number}} h',
    days: '{{count, number}} d',
    pair: '{{first}} {{second}}',
  },
  /** Unit names, for a field's unit or a message about one. */
  unitNames: {
    seconds: 'seconds',
    minutes: 'minutes',
    hours: 'hours',
    days: 'days',
  },
  /** Times relative to now. */
  time: {
    now: 'now',
    justNow: 'just now',
    in: 'in {{duration}}',
    ago: '{{duration}} ago',
    /** A time in the viewer's zone, with the same time in another zone. */
    inZone: '{{time}} ({{zoneTime}} {{zone}})',
  },
  /** A must-be-up range's weekdays as typed and shown (renderer/lib/weekdays.ts); routes store English. */
  weekdays: { Sun: 'Sun', Mon: 'Mon', Tue: 'Tue', Wed: 'Wed', Thu: 'Thu', Fri: 'Fri', Sat: 'Sat' },
  weekdaysFull: {
    Sun: 'Sunday',
    Mon: 'Monday',
    Tue: 'Tuesday',
    Wed: 'Wednesday',
    Thu: 'Thursday',
    Fri: 'Friday',
    Sat: 'Saturday',
  },
  appCount_one: '{{count, number}} app',
  appCount_other: '{{count, number}} apps',
  loading: 'Loading…',
  none: 'none',
  never: 'never',
  unknown: 'unknown',
  opensElsewhere: '(opens in your browser)',
  /** The roles of a team server's people (shared/people.ts). */
  roles: {
    viewer: 'viewer',
    operator: 'operator',
    admin: 'admin',
  },
  /** Why a control is disabled: the role of the person signed in does not allow it. */
  access: {
    needs: 'Needs the {{need}} role: you are signed in as {{have}}',
    checking: 'Checking who you are signed in as…',
  },
} as const;
