/** The page the wake proxy shows a browser while the app it asked for wakes up. */
export const waking = {
  title: 'Waking up {{name}}…',
  heading: 'Waking up {{name}}',
  intro: 'It was asleep to save resources. This page reloads by itself when it is ready.',
  progress: 'Start progress',
  expected: 'usually ready in about {{duration}}',
  elapsed: '{{duration}} elapsed',
  askedAt: 'asked at {{time}}',
  failed: 'The start did not work: {{cause}}. Reload to reach the app directly.',
  /** The states as the console column of the lifecycle names them. */
  states: {
    WaitingForInit: 'Initializing',
    Up: 'Up',
    WaitingForShutdown: 'Going to sleep',
    Down: 'Asleep',
    WaitingForUp: 'Waking up',
    Error: 'Error',
  },
} as const;
