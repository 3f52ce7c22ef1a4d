/**
 * The page's first script, kept small: it starts the dashboard's first requests (the event stream and
 * the snapshot) at once, and the catalogue of the language it speaks, while the bundle (./boot.tsx,
 * preloaded by index.html) is still on its way, then hands them to it.
 *
 * When the server rendered the first screen (a signed-in browser, issue 26: the rows are in the
 * page's HTML), the page carries the snapshot it was rendered with: it is read here, not asked for
 * again, and the bundle hydrates the rows with it, in the language the server wrote them in.
 */
import { FIRST_SCREEN_ID, type FirstScreenData } from '../shared/first-screen.ts';
import { loadCatalogue } from '../shared/i18n/catalogues.ts';
import { startEarlyRequests } from './api/early.ts';
import { splitToken } from './api/token.ts';
import { MARK_BUNDLE_RAN } from './lib/first-screen-marks.ts';
import { keepForServer, startingLanguage } from './lib/language-choice.ts';
import './styles.css';

// The rows come first in the page, its data block after them (this script may run before it is parsed).
const rendered =
  !window.reaper && !splitToken(location.hash).token && !!document.getElementById('root')?.firstChild;
if (!window.reaper) keepForServer(document, Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
const first = rendered ? await readFirstScreen() : null;
const early = startEarlyRequests(window, undefined, first ? first.snapshot.seq : null);
// The same module boot.tsx loads (renderer/i18n.ts): fetched once, started now.
const catalogue = loadCatalogue(first?.language ?? startingLanguage());
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
 * The server-rendered first screen's data, once parsed; null when there is none or it is not readable
 * (the page then renders anew, and asks for the snapshot: `rendered` is wrong only for a damaged page).
 */
async function readFirstScreen(): Promise<FirstScreenData | null> {
  if (!document.getElementById(FIRST_SCREEN_ID) && document.readyState === 'loading') {
    await new Promise((parsed) => document.addEventListener('DOMContentLoaded', parsed, { once: true }));
  }
  const block = document.getElementById(FIRST_SCREEN_ID);
  if (!block) return null;
  try {
    return JSON.parse(block.textContent ?? '') as FirstScreenData;
  } catch {
    return null;
  }
}
