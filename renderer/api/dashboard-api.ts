/**
 * What the dashboard talks to: the ReaperApi, from the desktop's preload (`window.reaper`, IPC) or
 * from the headless server (HTTP + server-sent events). The dashboard knows nothing else.
 */
import type { ReaperApi } from '../../shared/api.ts';
import type { ExportFormat, HistoryFilter } from '../../shared/history.ts';
import { apiFromBridge, type ReaperBridge } from '../../shared/ipc.ts';
import { createHttpClient } from './http-client.ts';
import type { StreamState } from './sse.ts';
import { takeTokenFromLocation } from './token.ts';

export type ConnectionState = StreamState;

export interface DashboardApi extends ReaperApi {
  /** The state of the event stream, for a transport that has one (HTTP); IPC is always connected. */
  onConnection?(listener: (state: ConnectionState) => void): () => void;
  /**
   * The filtered history as a file (GET /api/history?format=...), for a transport that can stream it;
   * the dashboard offers the download when this is there.
   */
  exportHistory?(format: ExportFormat, filter: HistoryFilter): Promise<{ blob: Blob; filename: string }>;
}

declare global {
  interface Window {
    /** Exposed by the desktop shell's preload: the ReaperApi over IPC, as envelopes (shared/ipc.ts). */
    reaper?: ReaperBridge;
  }
}

/** The desktop bridge when there is one; else the HTTP client, once a token is known. */
export function pickApi(win: Window): { api: DashboardApi } | { needsToken: true } {
  if (win.reaper) return { api: apiFromBridge(win.reaper) };
  const token = takeTokenFromLocation(win.location, win.history, win.sessionStorage);
  if (!token) return { needsToken: true };
  return { api: createHttpClient({ baseUrl: '', token }) };
}
