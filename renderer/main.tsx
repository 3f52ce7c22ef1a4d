/**
 * The page's first script, kept small: it starts the dashboard's first requests (the event stream and
 * the snapshot) at once, and the catalogue of the language it speaks, while the bundle (./boot.tsx,
 * preloaded by index.html) is still on its way, then hands them to it.
 *
 * When the server rendered the first screen (a signed-in browser, issue 26: the rows are in the
 * page's HTML), the page names the data it was rendered with (the snapshot, the session, the
 * language, the zone): fetched once here (the page's head preloads it), not asked for again as a
 * snapshot, and the bundle hydrates the rows with it, in the language the server wrote them in.
 */
import { type FirstScreenData, firstScreenPath, RENDERING_ATTRIBUTE } from '../shared/first-screen.ts';
import { loadCatalogue } from '../shared/i18n/catalogues.ts';
import { isLanguage } from '../shared/i18n/languages.ts';
import { startEarlyRequests } from './api/early.ts';
import { splitToken } from './api/token.ts';
import { MARK_BUNDLE_RAN } from './lib/first-screen-marks.ts';
import { keepForServer, startingLanguage, viewerHere } from './lib/language-choice.ts';
import './styles.css';

// The server sends the page as it makes it: its head (this script's tag, and on <html> the id of the
// first screen's data, which the head preloads), then the rows, so this script may run before they are in.
const firstId =
  !window.reaper && !splitToken(location.hash).token
    ? document.documentElement.getAttribute(RENDERING_ATTRIBUTE)
    : null;
// As the head's preload asked for it (same URL, mode and credentials), so that it takes that answer.
const firstScreen = firstId ? fetch(firstScreenPath(firstId)).catch(() => null) : null;
// The same module boot.tsx loads (renderer/i18n.ts): fetched once, started now, in the language the
// server wrote the page in when it did.
const pageLanguage = document.documentElement.lang;
const catalogue = loadCatalogue(firstId && isLanguage(pageLanguage) ? pageLanguage : startingLanguage());
// Rows rendered by the server are painted before anything else runs here: the bundle's evaluation
// (about 100 ms of the main thread in a new renderer process) and the reading of the rows' data would
// otherwise come before the page's first frame. They are hydrated once they are all in.
if (firstId) await parsedAndPainted();
// Once the rows are laid out: the height of the table's scrolled area, which the next first screen fills.
if (!window.reaper) keepForServer(document, viewerHere(window));
const first = firstScreen ? await readFirstScreen(firstScreen) : null;
const early = startEarlyRequests(window, undefined, first ? first.snapshot.seq : null);
// This script is `async` (it does not wait for the stylesheet): the dashboard is rendered once the
// stylesheet is in, so the apps table measures its rows styled.
const stylesheet = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
const styled =
  stylesheet && !stylesheet.sheet
    ? new Promise((done) => {
        stylesheet.addEventListener('load', done, { once: true });
        stylesheet.addEventListener('error', done, { once: true });
      })
    : null;
const [{ boot }] = await Promise.all([import('./boot.tsx'), catalogue]);
await styled;
performance.mark(MARK_BUNDLE_RAN);
await boot(early, first);

/**
 * The data the server rendered the first screen with (preloaded by the page's head); null when it
 * has none for this page (its render failed, it was taken, or another instance of a team server
 * rendered the page): the page then renders anew with a snapshot of its own.
 */
async function readFirstScreen(answer: Promise<Response | null>): Promise<FirstScreenData | null> {
  try {
    const res = await answer;
    return res?.ok ? ((await res.json()) as FirstScreenData) : null;
  } catch {
    return null;
  }
}

/**
 * The page parsed to its end, then its first content on screen (the browser's first-contentful-paint:
 * the rows presented, not only painted: on two cores the rasterising of that frame waits for a CPU the
 * bundle's run would take). At once in a hidden tab, which paints nothing; at most a second.
 */
async function parsedAndPainted(): Promise<void> {
  if (document.readyState === 'loading') {
    await new Promise((parsed) => document.addEventListener('DOMContentLoaded', parsed, { once: true }));
  }
  if (document.visibilityState === 'hidden' || !PerformanceObserver.supportedEntryTypes.includes('paint'))
    return;
  let observer: PerformanceObserver | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await new Promise<void>((shown) => {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) shown();
    });
    observer.observe({ type: 'paint', buffered: true });
    timer = setTimeout(shown, 1000);
  });
  observer?.disconnect();
  clearTimeout(timer);
}
