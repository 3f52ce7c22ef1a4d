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
import { clockTime, fullTime, nameCollator } from './lib/format.ts';

export async function boot(early: EarlyRequests | null): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  const initial = early
    ? {
        api: createHttpClient({
          baseUrl: '',
          token: early.token,
          fetch: early.fetch,
          earlySnapshot: early.takeSnapshot,
        }),
      }
    : pickApi(window);
  await loadStartingLanguage();
  warmIntl();
  createRoot(root).render(
    <StrictMode>
      <BrowserApp initial={initial} />
    </StrictMode>,
  );
}

/**
 * The first Intl objects of a new renderer process are slow to make (ICU loads its data): the
 * collator the table sorts names with, the browser's time zone and the formats of the rows' times,
 * made here while the snapshot is usually still on its way, not during the render of the rows (they
 * are cached: the render takes these). Some 7 % of that render in a new browser context, from a CPU
 * profile (bench/first-render-trace.ts).
 */
function warmIntl(): void {
  const now = Date.now();
  nameCollator();
  fullTime(now);
  clockTime(now, now);
}
