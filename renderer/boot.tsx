/**
 * The dashboard rendered into #root, with the requests the first script started (if any), once the
 * catalogue of its language is in (main.tsx started loading it).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserApp } from './App.tsx';
import type { EarlyRequests } from './api/early.ts';
import { createHttpClient } from './api/http-client.ts';
import { pickApi } from './api/pick-api.ts';
import { loadStartingLanguage } from './i18n.ts';

export async function boot(early: EarlyRequests | null): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  const initial = early
    ? { api: createHttpClient({ baseUrl: '', token: early.token, fetch: early.fetch }) }
    : pickApi(window);
  await loadStartingLanguage();
  createRoot(root).render(
    <StrictMode>
      <BrowserApp initial={initial} />
    </StrictMode>,
  );
}
