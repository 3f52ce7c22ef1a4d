/**
 * The server's render of the first screen (issue 26): the dashboard as a signed-in browser's first
 * paint shows it (the header, the banners, the apps view with the rows the table shows first), from
 * the same components, for the page's HTML; the page then hydrates it (renderer/boot.tsx) with the same
 * data. Built by vite to out/renderer-ssr (vite.config.ts), loaded by the headless server
 * (main/server/first-page.ts) when present.
 *
 * What makes the page's hydration render exactly the same: the snapshot (its `now` is the time the
 * times are written at: the store's clock and `useServerNow`), the language and its catalogue, the
 * Intl locale and the time zone, all given in `data` and in the page's data block.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import type { Snapshot } from '../shared/api.ts';
import type { FirstScreenData } from '../shared/first-screen.ts';
import { snapshotFromForm } from '../shared/snapshot-form.ts';
import { BrowserApp } from './App.tsx';
import { createHttpClient } from './api/http-client.ts';
import { setFirstTableHeight } from './components/apps/AppsTable.tsx';
import { i18n, loadLanguage } from './i18n.ts';
import { setIntlLocale, setViewerTimeZone } from './lib/format.ts';

/** Nothing is asked of the server while rendering (no effect runs): a request would be a bug. */
const noFetch: typeof fetch = () => Promise.reject(new Error('no request from the server-side render'));

export async function renderFirstScreen(data: FirstScreenData, flat?: Snapshot): Promise<string> {
  await loadLanguage(data.language);
  const snapshot = flat ?? snapshotFromForm(data.snapshot);
  const initial = {
    http: createHttpClient({ baseUrl: `http://${data.host}`, fetch: noFetch }),
    session: new Promise<never>(() => undefined),
  };
  // From here to the end of the render nothing awaits: another request's render cannot come between
  // (the instance's language, the locale and the zone are the page's, set for this render only).
  i18n.changeLanguage(data.language).catch(() => undefined);
  if (i18n.language !== data.language) throw new Error(`the language did not change to ${data.language}`);
  setViewerTimeZone(data.zone);
  setIntlLocale(data.locale);
  setFirstTableHeight(data.viewHeight);
  try {
    return renderToString(
      <StrictMode>
        <BrowserApp initial={initial} first={{ snapshot, session: data.session }} />
      </StrictMode>,
    );
  } finally {
    setViewerTimeZone(null);
    setIntlLocale(null);
    setFirstTableHeight(null);
  }
}
