/**
 * What the dashboard talks to: the ReaperApi, from the desktop's preload (`window.reaper`, IPC) or
 * from the headless server (HTTP + server-sent events). The dashboard knows nothing else.
 * Types only: the transports (http-client.ts, the bridge) implement it and pick-api.ts chooses one.
 */
import type { ReaperApi } from '../../shared/api.ts';
import type { ExportFormat, HistoryFilter } from '../../shared/history.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import type { LanguageBridge, ReaperBridge } from '../../shared/ipc.ts';
import type { AuditEntry, AuditQuery, Role, SessionInfo, TokenInfo } from '../../shared/people.ts';
import type { ConnectInput, ConsoleBridge, ConsoleState } from '../../shared/team-console.ts';
import type { SessionAnswer } from './session.ts';
import type { StreamState } from './sse.ts';

export type ConnectionState = StreamState;

/**
 * The desktop app's mode: its own engine, or a console of a team server (shared/team-console.ts).
 * A refusal is an ApiError with the field (`url`, `token`) of each problem.
 */
export interface ConsoleControl {
  state(): Promise<ConsoleState>;
  onState(listener: (state: ConsoleState) => void): () => void;
  connect(input: ConnectInput): Promise<ConsoleState>;
  switchToLocal(): Promise<ConsoleState>;
}

/**
 * The browser dashboard's sign-in session and the people API of the server (issue 25): who the
 * dashboard is signed in as, sign in and out, and the tokens (admin).
 */
export interface SessionControl {
  /** Sign in with a token: the server sets the session cookie; the stream opens again if it was refused. */
  signIn(token: string): Promise<SessionAnswer>;
  /** Keep the CSRF token of this answer for the changes. */
  adopt(info: SessionInfo): void;
  /** End the session on the server (and forget its CSRF token). */
  signOut(): Promise<void>;
  listTokens(): Promise<TokenInfo[]>;
  createToken(input: { name: string; role: Role; expiresAt: number | null }): Promise<{
    token: string;
    info: TokenInfo;
  }>;
  revokeToken(name: string): Promise<TokenInfo>;
}

export interface DashboardApi extends ReaperApi {
  /** The headless server's dashboard: its sign-in session (none in the desktop app). */
  session?: SessionControl;
  /** The state of the event stream, for a transport that has one (HTTP); IPC is always connected. */
  onConnection?(listener: (state: ConnectionState) => void): () => void;
  /**
   * The filtered history as a file (GET /api/history?format=...), for a transport that can stream it;
   * the dashboard offers the download when this is there.
   */
  exportHistory?(format: ExportFormat, filter: HistoryFilter): Promise<{ blob: Blob; filename: string }>;
  /**
   * The audit of configuration changes (GET /api/audit), newest first, for a transport that reaches a
   * server that keeps one; the dashboard shows its Audit view when this is there.
   */
  audit?(query: AuditQuery): Promise<AuditEntry[]>;
  /** The desktop app: local engine or team server, and the switch between them. */
  console?: ConsoleControl;
  /** The headless server's dashboard: the host (and port) of the server it talks to. */
  serverHost?: string;
  /**
   * The desktop app: tell the main process the language chosen in Settings (null: the system's), so
   * the tray and the notifications speak it too. Resolves once it is kept.
   */
  setLanguage?(choice: Language | null): Promise<void>;
}

declare global {
  interface Window {
    /**
     * Exposed by the desktop shell's preload: the ReaperApi over IPC, as envelopes (shared/ipc.ts),
     * the console's mode (shared/team-console.ts) and the language choice (LanguageBridge).
     */
    reaper?: ReaperBridge & { console?: ConsoleBridge; language?: LanguageBridge };
  }
}
