/**
 * The IPC side of the console's mode (team-console.ts): one invoke channel for its three operations,
 * answered only to the app's own window (the same sender check as every call), and the state pushed
 * to the window when it changes.
 */
import type { IpcMainInvokeEvent } from 'electron';
import { type Envelope, envelope } from '../../shared/api-errors.ts';
import type { Log } from '../../shared/log.ts';
import { CONSOLE_OPS, CONSOLE_STATE_CHANNEL, type ConsoleState } from '../../shared/team-console.ts';
import type { ConsoleMode } from './console-mode.ts';
import { type EventPipe, isTrustedSender, type SenderInfo, type Trust } from './ipc.ts';

/** The handler of CONSOLE_CHANNEL: `(event, op, input)` → an envelope of the ConsoleState. */
export function createConsoleHandler(
  mode: Pick<ConsoleMode, 'state' | 'connect' | 'switchToLocal'>,
  trust: Trust,
  log?: Log,
) {
  return async (
    event: SenderInfo | IpcMainInvokeEvent,
    op: unknown,
    input: unknown,
  ): Promise<Envelope<ConsoleState>> => {
    if (!isTrustedSender(event as SenderInfo, trust)) {
      log?.('warn', "IPC console call refused: it does not come from the app's window");
      return { ok: false, error: { code: 'unauthorized', message: 'this page may not call the reaper' } };
    }
    if (typeof op !== 'string' || !(CONSOLE_OPS as readonly string[]).includes(op)) {
      return { ok: false, error: { code: 'invalid-input', message: 'unknown console operation' } };
    }
    return envelope(async () => {
      if (op === 'connect') return mode.connect(input);
      if (op === 'local') return mode.switchToLocal();
      return mode.state();
    });
  };
}

/** Push each change of the mode to the window. */
export function pushConsoleState(
  mode: Pick<ConsoleMode, 'onState'>,
  pipe: Pick<EventPipe, 'signal'>,
): () => void {
  return mode.onState((state) => pipe.signal(CONSOLE_STATE_CHANNEL, state));
}
