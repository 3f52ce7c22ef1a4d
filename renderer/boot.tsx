/**
 * The dashboard rendered into #root, with the requests the first script started (if any), once the
 * catalogue of its language is in (main.tsx started loading it). When the server rendered the first
 * screen (renderer/ssr.tsx), it is hydrated: rendered once exactly as the server did (its snapshot,
 * language, Intl locale, time zone and time), then with this browser's own language and zone.
 */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { FirstScreenData } from '../shared/first-screen.ts';
import { snapshotFromForm } from '../shared/snapshot-form.ts';
import { BrowserApp } from './App.tsx';
import type { EarlyRequests } from './api/early.ts';
import { browserApi, type Picked, pickApi } from './api/pick-api.ts';
import { setFirstTableHeight } from './components/apps/AppsTable.tsx';
import { i18n, loadLanguage, loadStartingLanguage } from './i18n.ts';
import { MARK_HYDRATED } from './lib/first-screen-marks.ts';
import { clockTime, fullTime, nameCollator, setIntlLocale, setViewerTimeZone } from './lib/format.ts';
import { startingLanguage } from './lib/language-choice.ts';

export async function boot(early: EarlyRequests | null, first: FirstScreenData | null = null): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root element');
  const initial = early ? browserApi(early) : pickApi(window);
  if (first && 'http' in initial) {
    await hydrateFirstScreen(root, initial, first);
    return;
  }
  await loadStartingLanguage();
  warmIntl();
  createRoot(root).render(
    <StrictMode>
      <BrowserApp initial={initial} />
    </StrictMode>,
  );
}

/**
 * Hydrate the server's first screen: rendered once as the server did it (its zone, locale, language,
 * snapshot and session), then this browser's own zone and language. Resolves once hydration has
 * started, with `hydrated`, which resolves once React has the page's DOM (`reaper:hydrated` marked).
 */
export async function hydrateFirstScreen(
  root: HTMLElement,
  initial: Extract<Picked, { http: unknown }>,
  first: FirstScreenData,
): Promise<{ hydrated: Promise<void> }> {
  setViewerTimeZone(first.zone);
  setIntlLocale(first.locale);
  setFirstTableHeight(first.viewHeight);
  await loadLanguage(first.language);
  await i18n.changeLanguage(first.language);
  document.documentElement.lang = first.language;
  initial.http.session?.adopt(first.session);
  warmIntl();
  const start = { snapshot: snapshotFromForm(first.snapshot), session: first.session };
  let resolve = () => {};
  const done = new Promise<void>((settle) => {
    resolve = settle;
  });
  let hydrated = false;
  const onHydrated = () => {
    if (hydrated) return;
    hydrated = true;
    performance.mark(MARK_HYDRATED);
    // From now on, this browser's own zone and locale (the tick re-renders the times within a second).
    setViewerTimeZone(null);
    setIntlLocale(null);
    setFirstTableHeight(null);
    const own = startingLanguage();
    if (own !== first.language) {
      loadLanguage(own)
        .then(() => i18n.changeLanguage(own))
        .then(() => {
          document.documentElement.lang = own;
        })
        // Not loaded: the server's language stays (Settings can switch).
        .catch(() => undefined);
    }
    resolve();
  };
  hydrateRoot(
    root,
    <StrictMode>
      <BrowserApp initial={initial} first={start} onHydrated={onHydrated} />
    </StrictMode>,
    {
      // A mismatch makes React render the page anew (it still works): said, so tests and people see it.
      onRecoverableError: (error, info) =>
        console.error('the first screen was not hydrated as rendered:', error, info.componentStack),
    },
  );
  return { hydrated: done };
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
