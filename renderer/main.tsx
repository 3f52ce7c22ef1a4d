/**
 * The page's first script, kept small: it starts the dashboard's first requests (the event stream and
 * the snapshot) at once, and the catalogue of the language it speaks, while the bundle (./boot.tsx,
 * preloaded by index.html) is still on its way, then hands them to it.
 */
import { loadCatalogue } from '../shared/i18n/catalogues.ts';
import { startEarlyRequests } from './api/early.ts';
import { MARK_BUNDLE_RAN } from './lib/first-screen-marks.ts';
import { startingLanguage } from './lib/language-choice.ts';
import './styles.css';

const early = startEarlyRequests(window);
// The same module boot.tsx loads (renderer/i18n.ts): fetched once, started now.
const catalogue = loadCatalogue(startingLanguage());
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
await boot(early);
