/**
 * The preload of the dashboard's window: exposes `window.reaper`, the ReaperBridge (one function per
 * call, see shared/ipc.ts), and nothing else. Never ipcRenderer itself: the page can only make the
 * calls of the contract, on the one channel the main side checks.
 *
 * Sandboxed (contextIsolation, sandbox, no Node): bundled into one CommonJS file that requires only
 * 'electron'.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { ReaperEvent, ReaperListener } from '../../shared/api.ts';
import type { Envelope } from '../../shared/api-errors.ts';
import { bridgeFromInvoke, CALL_CHANNEL, EVENT_CHANNEL, READY_CHANNEL } from '../../shared/ipc.ts';

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

contextBridge.exposeInMainWorld(
  'reaper',
  bridgeFromInvoke(
    (name, input) => ipcRenderer.invoke(CALL_CHANNEL, name, input) as Promise<Envelope<unknown>>,
    subscribe,
  ),
);
