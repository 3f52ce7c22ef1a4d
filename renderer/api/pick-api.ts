/** Which transport the dashboard talks through: the desktop's preload, or HTTP with the session cookie. */
import { ApiError, type ErrorCode, fromErrorBody, unwrap } from '../../shared/api-errors.ts';
import type { FieldProblem } from '../../shared/errors.ts';
import { apiFromBridge } from '../../shared/ipc.ts';
import type { ConsoleBridge, ConsoleEnvelope, ConsoleState } from '../../shared/team-console.ts';
import type { ConnectionState, ConsoleControl, DashboardApi } from './dashboard-api.ts';
import { type EarlyRequests, startEarlyRequests } from './early.ts';
import { createHttpClient } from './http-client.ts';
import type { SessionAnswer } from './session.ts';

/**
 * The browser dashboard: the HTTP client (with the session cookie) and who it is signed in as, or
 * why not (the token screen). The desktop app: its bridge, no sign-in.
 */
export type Picked = { api: DashboardApi } | { http: DashboardApi; session: Promise<SessionAnswer> };

/** The HTTP client over the requests the page's first script started. */
export function browserApi(early: EarlyRequests): Picked {
  return {
    http: createHttpClient({ baseUrl: '', fetch: early.fetch, earlySnapshot: early.takeSnapshot }),
    session: early.session,
  };
}

/** The desktop bridge when there is one; else the HTTP client of the signed-in browser. */
export function pickApi(win: Window): Picked {
  if (win.reaper) {
    const language = win.reaper.language;
    const api: DashboardApi = {
      ...apiFromBridge(win.reaper),
      ...(language ? { setLanguage: async (choice) => void unwrap(await language.set(choice)) } : {}),
    };
    const bridge = win.reaper.console;
    if (!bridge) return { api };
    const control = consoleFromBridge(bridge);
    return { api: { ...api, console: control, onConnection: (listener) => connectionOf(control, listener) } };
  }
  const early = startEarlyRequests(win);
  if (!early) throw new Error('no desktop bridge and no browser requests');
  return browserApi(early);
}

function unwrapConsole(answer: ConsoleEnvelope): ConsoleState {
  if (answer.ok) return answer.value;
  const error = answer.error as { code: string; message: string; problems?: FieldProblem[] };
  return raise(error);
}

function raise(error: { code: string; message: string; problems?: FieldProblem[] }): never {
  throw fromErrorBody({
    error: { code: error.code as ErrorCode, message: error.message, problems: error.problems ?? [] },
  });
}

export function consoleFromBridge(bridge: ConsoleBridge): ConsoleControl {
  return {
    state: async () => unwrapConsole(await bridge.get()),
    onState: (listener) => bridge.onState(listener),
    connect: async (input) => unwrapConsole(await bridge.connect(input)),
    switchToLocal: async () => unwrapConsole(await bridge.switchToLocal()),
  };
}

/**
 * The connection the dashboard shows, in the desktop: always live on this computer's engine; in team
 * mode, the state of the team server's event stream (the main process follows it).
 */
function connectionOf(control: ConsoleControl, listener: (state: ConnectionState) => void): () => void {
  const tell = (state: ConsoleState) => listener(state.mode === 'team' ? state.connection : 'live');
  const off = control.onState(tell);
  control.state().then(tell, (error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
  });
  return off;
}
