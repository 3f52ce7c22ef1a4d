/** Which transport the dashboard talks through: the desktop's preload, or HTTP with a token. */
import { apiFromBridge } from '../../shared/ipc.ts';
import type { DashboardApi } from './dashboard-api.ts';
import { createHttpClient } from './http-client.ts';
import { takeTokenFromLocation } from './token.ts';

/** The desktop bridge when there is one; else the HTTP client, once a token is known. */
export function pickApi(win: Window): { api: DashboardApi } | { needsToken: true } {
  if (win.reaper) return { api: apiFromBridge(win.reaper) };
  const token = takeTokenFromLocation(win.location, win.history, win.sessionStorage);
  if (!token) return { needsToken: true };
  return { api: createHttpClient({ baseUrl: '', token }) };
}
