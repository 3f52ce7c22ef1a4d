/**
 * The IPC transport of the ReaperApi, main side (Electron security checklist item 17: validate the
 * sender of every IPC message). One invoke channel for every call, one channel for pushed events.
 *
 * A call is answered only when it comes from the main frame of one of the app's windows showing the
 * app's own page, and names a known call; its input is then parsed by the service with the shared
 * schemas (the same code path as the HTTP transport). The answer is an envelope, so a typed error
 * (and an invalid input's field problems) reaches the dashboard intact.
 *
 * Pushed events are sent to the app's window only, and held back while its page loads: the page
 * says when it listens (READY_CHANNEL), then gets what was held, in order.
 *
 * No Electron import here (types only): index.ts registers these handlers on ipcMain, and tests
 * call them with plain objects.
 */
import type { IpcMainEvent, IpcMainInvokeEvent } from 'electron';
import { CALL_SCHEMAS, type CallName, type ReaperEvent } from '../../shared/api.ts';
import { type Envelope, envelope, toErrorBody } from '../../shared/api-errors.ts';
import { EVENT_CHANNEL } from '../../shared/ipc.ts';
import { describeError, type Log } from '../../shared/log.ts';
import { type AppPage, isAppPage } from './url-policy.ts';

/** What a handler looks at in an IPC event (a subset of Electron's, so tests pass plain objects). */
export interface SenderInfo {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

/** The app's windows, by webContents id, and the page they must show. */
export interface Trust {
  isAppWindow(webContentsId: number): boolean;
  page: AppPage;
}

/** The sender is the main frame of an app window, on the app's page (not an iframe, not elsewhere). */
export function isTrustedSender(event: SenderInfo, trust: Trust): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (!trust.isAppWindow(event.sender.id)) return false;
  return isAppPage(frame.url, trust.page);
}

export interface CallBackend {
  call(name: CallName, raw: unknown): Promise<unknown>;
}

/** The handler of CALL_CHANNEL: `(event, name, input)` → an envelope. */
export function createCallHandler(backend: CallBackend, trust: Trust, log?: Log) {
  return async (
    event: SenderInfo | IpcMainInvokeEvent,
    name: unknown,
    input: unknown,
  ): Promise<Envelope<unknown>> => {
    if (!isTrustedSender(event as SenderInfo, trust)) {
      log?.('warn', `IPC call refused: it does not come from the app's window (${senderUrl(event)})`);
      return { ok: false, error: { code: 'unauthorized', message: 'this page may not call the reaper' } };
    }
    if (typeof name !== 'string' || !Object.hasOwn(CALL_SCHEMAS, name)) {
      return {
        ok: false,
        error: { code: 'invalid-input', message: `there is no call named ${JSON.stringify(name)}` },
      };
    }
    return envelope(async () => {
      try {
        return await backend.call(name as CallName, input);
      } catch (error) {
        if (toErrorBody(error).error.code === 'internal') {
          log?.('error', `${name}: ${describeError(error, { stack: true })}`);
        }
        throw error;
      }
    });
  };
}

function senderUrl(event: unknown): string {
  const url = (event as SenderInfo).senderFrame?.url;
  return url ? url.slice(0, 200) : 'no frame';
}

/** Where pushed events go: the window's webContents. */
export interface PushTarget {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

interface Pushed {
  event: ReaperEvent;
  seq: number;
}

/** Events held while a page loads; past this, the oldest engine events go first (the page starts from a snapshot). */
export const HELD_MAX = 1000;

/**
 * The push channel to the window. While the page loads (or a reload), events are held, and sent
 * in order once it listens. With no window at all, only the shell's own events (seq 0: "show this
 * app") are held: a window opened later starts from a snapshot, which has everything else.
 */
export class EventPipe {
  private target: PushTarget | null = null;
  private ready = false;
  private held: Pushed[] = [];

  /** A window (or its reloaded page) that does not listen yet. */
  attach(target: PushTarget): void {
    this.target = target;
    this.ready = false;
  }

  /** The window closed. */
  detach(target: PushTarget): void {
    if (this.target !== target) return;
    this.target = null;
    this.ready = false;
    this.held = this.held.filter((p) => p.seq === 0);
  }

  /** The page of this webContents listens now (READY_CHANNEL, sender checked by the caller). */
  markReady(webContentsId: number): void {
    if (!this.target || this.target.id !== webContentsId) return;
    this.ready = true;
    const held = this.held;
    this.held = [];
    for (const p of held) this.send(p);
  }

  push(event: ReaperEvent, seq: number): void {
    const pushed = { event, seq };
    if (this.ready && this.target && !this.target.isDestroyed()) {
      this.send(pushed);
      return;
    }
    if (!this.target && seq !== 0) return;
    this.held.push(pushed);
    if (this.held.length > HELD_MAX) {
      const oldest = this.held.findIndex((p) => p.seq !== 0);
      this.held.splice(oldest === -1 ? 0 : oldest, 1);
    }
  }

  /**
   * A message outside the events' sequence (the console's mode, team-console.ts), to a page that
   * listens now; a page that loads later asks for it.
   */
  signal(channel: string, payload: unknown): void {
    const target = this.target;
    if (!this.ready || !target || target.isDestroyed()) return;
    try {
      target.send(channel, payload);
    } catch {
      // The page went away: it asks again when it loads.
    }
  }

  /** How many events wait for the page (for tests and diagnostics). */
  get waiting(): number {
    return this.held.length;
  }

  private send({ event, seq }: Pushed): void {
    const target = this.target;
    if (!target || target.isDestroyed()) return;
    try {
      target.send(EVENT_CHANNEL, event, seq);
    } catch {
      // The page went away between the check and the send: it starts from a snapshot next time.
    }
  }
}

/** The handler of READY_CHANNEL. */
export function createReadyHandler(pipe: EventPipe, trust: Trust, log?: Log) {
  return (event: SenderInfo | IpcMainEvent): void => {
    if (!isTrustedSender(event as SenderInfo, trust)) {
      log?.('warn', `IPC ready refused: it does not come from the app's window (${senderUrl(event)})`);
      return;
    }
    pipe.markReady(event.sender.id);
  };
}
