/** The desktop app's system notifications. */
export const notifications = {
  error: {
    title: '{{name}} is in Error',
    summary_one: '{{count, number}} more app is in Error',
    summary_other: '{{count, number}} more apps are in Error',
  },
  asleep: '{{name}} is asleep',
  awake: '{{name}} is awake',
  moves_one: '{{count, number}} more app went to sleep or woke up',
  moves_other: '{{count, number}} more apps went to sleep or woke up',
  /** The names of a summary: the first five, then how many others. */
  names: '{{list}} and {{count, number}} more',
  link: {
    title: 'Clever Reaper cannot open this link',
    body: 'Links look like clever-reaper://open/app_… or clever-reaper://wake/app_…',
  },
  stillRunning: {
    title: 'Clever Reaper is still running',
    body: 'It keeps watching your apps from the tray. Quit it from the tray menu.',
  },
  /** A tray action that failed: "Could not wake billing-preview". */
  failed: {
    reset: 'Could not reset {{name}}',
    wake: 'Could not wake {{name}}',
    killSwitch: 'Could not change the kill switch',
    dryRun: 'Could not change dry-run',
    startAtLogin: 'Could not start at login',
    stopStartAtLogin: 'Could not stop starting at login',
  },
} as const;
