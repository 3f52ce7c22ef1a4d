/**
 * The preload of the dashboard's window: exposes `window.reaper`, the ReaperBridge (one function per
 * call, see shared/ipc.ts) with its `console` (local engine or team server, shared/team-console.ts)
 * and its `language` (the choice made in Settings, for the tray and the notifications), and nothing
 * else. Never ipcRenderer itself: the page can only make the
 * calls of the contract, on the one channel the main side checks.
 *
 * Sandboxed (contextIsolation, sandbox, no Node): bundled into one CommonJS file that requires only
 * 'electron'.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { ReaperEvent, ReaperListener } from '../../shared/api.ts';
import type { Envelope } from '../../shared/api-errors.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import {
  bridgeFromInvoke,
  CALL_CHANNEL,
  EVENT_CHANNEL,
  LANGUAGE_CHANNEL,
  type LanguageBridge,
  type LanguageState,
  READY_CHANNEL,
} from '../../shared/ipc.ts';
import {
  CONSOLE_CHANNEL,
  CONSOLE_STATE_CHANNEL,
  type ConsoleBridge,
  type ConsoleEnvelope,
  type ConsoleState,
} from '../../shared/team-console.ts';

const listeners = new Set<ReaperListener>();
let listening = false;

function subscribe(listener: ReaperListener): () => void {
  listeners.add(listener);
  if (!listening) {
    listening = true;
    ipcRenderer.on(EVENT_CHANNEL, (_event, pushed: ReaperEvent, seq: number) => {
      for (const l of listeners) {
        try {
          l(pushed, seq);
        } catch (error) {
          console.error('a listener of the reaper failed', error);
        }
      }
    });
  }
  // The main side holds events back until the page listens.
  ipcRenderer.send(READY_CHANNEL);
  return () => {
    listeners.delete(listener);
  };
}

const consoleListeners = new Set<(state: ConsoleState) => void>();
let consoleListening = false;
const invokeConsole = (op: string, input?: unknown) =>
  ipcRenderer.invoke(CONSOLE_CHANNEL, op, input ?? {}) as Promise<ConsoleEnvelope>;

const consoleBridge: ConsoleBridge = {
  get: () => invokeConsole('get'),
  connect: (input) => invokeConsole('connect', { url: input.url, token: input.token }),
  switchToLocal: () => invokeConsole('local'),
  onState(listener) {
    consoleListeners.add(listener);
    if (!consoleListening) {
      consoleListening = true;
      ipcRenderer.on(CONSOLE_STATE_CHANNEL, (_event, state: ConsoleState) => {
        for (const l of consoleListeners) l(state);
      });
    }
    return () => {
      consoleListeners.delete(listener);
    };
  },
};

const languageBridge: LanguageBridge = {
  set: (choice: Language | null) =>
    ipcRenderer.invoke(LANGUAGE_CHANNEL, choice) as Promise<Envelope<LanguageState>>,
};

contextBridge.exposeInMainWorld('reaper', {
  ...bridgeFromInvoke(
    (name, input) => ipcRenderer.invoke(CALL_CHANNEL, name, input) as Promise<Envelope<unknown>>,
    subscribe,
  ),
  console: consoleBridge,
  language: languageBridge,
});
