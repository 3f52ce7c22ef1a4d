/**
 * What the dashboard talks to: the ReaperApi, from the desktop's preload (`window.reaper`, IPC) or
 * from the headless server (HTTP + server-sent events). The dashboard knows nothing else.
 * Types only: the transports (http-client.ts, the bridge) implement it and pick-api.ts chooses one.
 */
import type { ReaperApi } from '../../shared/api.ts';
import type { ExportFormat, HistoryFilter } from '../../shared/history.ts';
import type { ReaperBridge } from '../../shared/ipc.ts';
import type { StreamState } from './sse.ts';

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
