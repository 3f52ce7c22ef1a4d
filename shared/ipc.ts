/**
 * The IPC transport of the ReaperApi (the desktop shell): its channels, and the bridge the preload
 * exposes to the dashboard as `window.reaper`.
 *
 * Why a bridge and not the ReaperApi itself: Electron's contextBridge keeps only the message of an
 * error thrown across it (its class, code and field problems are lost), and the dashboard's forms
 * need those to mark the right field. So each bridge function resolves to the envelope the main
 * side answered (`{ok, value}` or `{ok: false, error}`, plain data that crosses intact), and the
 * dashboard unwraps it in its own world with `apiFromBridge`, where `ApiError` is the class it
 * checks for. Still one function per call: the page never gets a generic `ipcRenderer`.
 */
import type { CallInput, CallName, CallOutput, ReaperApi, ReaperCalls, ReaperListener } from './api.ts';
import { type Envelope, unwrap } from './api-errors.ts';
import { HTTP_ROUTES } from './api-http.ts';
import type { Language } from './i18n/languages.ts';

/** Renderer → main (invoke): `(name, input)`, answered with an Envelope. */
export const CALL_CHANNEL = 'reaper:call';
/** Main → renderer: `(event, seq)`, every pushed event, in order. */
export const EVENT_CHANNEL = 'reaper:event';
/** Renderer → main: the page listens now; events held back while it loaded are sent. */
export const READY_CHANNEL = 'reaper:ready';
/**
 * Renderer → main (invoke): `(choice)`, the language chosen in the dashboard's Settings (`'en'`,
 * `'fr'`, or null to follow the system's), for the tray and the notifications. Answered with an
 * Envelope of `LanguageState`.
 */
export const LANGUAGE_CHANNEL = 'reaper:language';

/** The desktop's language after a choice: the choice kept, and the language it gives. */
export interface LanguageState {
  choice: Language | null;
  language: Language;
}

/** What the preload exposes as `window.reaper.language`. */
export interface LanguageBridge {
  set(choice: Language | null): Promise<Envelope<LanguageState>>;
}

/**
 * Every call's name, from HTTP_ROUTES rather than CALL_SCHEMAS: the preload is bundled alone into
 * the sandbox, and HTTP_ROUTES keeps zod and the schemas out of it. HTTP_ROUTES is a
 * `Record<CallName, HttpRoute>`, so the compiler names a call missing there; a test checks this
 * list against CALL_NAMES.
 */
export const BRIDGE_CALLS = Object.keys(HTTP_ROUTES) as CallName[];

type Args<I> = Record<string, never> extends I ? [input?: I] : [input: I];

/** What the preload exposes as `window.reaper`: one function per call, answering an envelope. */
export type ReaperBridge = {
  [K in CallName]: (...args: Args<CallInput<K>>) => Promise<Envelope<CallOutput<K>>>;
} & {
  /** Hear the engine's events (and the shell's); returns the function that stops listening. */
  subscribe(listener: ReaperListener): () => void;
};

/** The preload's side: one bridge function per call over one generic invoke. */
export function bridgeFromInvoke(
  invoke: (name: CallName, input: unknown) => Promise<Envelope<unknown>>,
  subscribe: ReaperBridge['subscribe'],
): ReaperBridge {
  const calls = Object.fromEntries(
    BRIDGE_CALLS.map((name) => [name, (input?: unknown) => invoke(name, input ?? {})]),
  );
  return { ...calls, subscribe } as unknown as ReaperBridge;
}

/** The dashboard's side: the ReaperApi over the bridge, errors rebuilt as ApiError in this world. */
export function apiFromBridge(bridge: ReaperBridge): ReaperApi {
  const calls = Object.fromEntries(
    BRIDGE_CALLS.map((name) => [
      name,
      async (input?: unknown) => {
        const call = bridge[name] as (input?: unknown) => Promise<Envelope<unknown>>;
        return unwrap(await call(input ?? {}));
      },
    ]),
  ) as unknown as ReaperCalls;
  return { ...calls, subscribe: (listener) => bridge.subscribe(listener) };
}
