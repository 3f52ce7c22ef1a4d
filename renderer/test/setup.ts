/**
 * jsdom has no layout: the virtualised table is given a viewport (1000 x 600), and scrolling is a
 * no-op. Testing Library unmounts after each test; the URL (where the dashboard keeps its place) and
 * the stored preferences start empty for each.
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
// The dashboard's i18n instance, as main.tsx loads it, with both catalogues (the page loads one at a
// time; tests switch with i18n.changeLanguage): components rendered alone speak too (English).
import { loadLanguage, loadStartingLanguage } from '../i18n.ts';

await Promise.all([loadLanguage('en'), loadLanguage('fr')]);

// findBy* and waitFor wait on the page changing, for up to 1 s by default: a lazy view's chunk
// imported on a loaded 2-core machine takes longer than that. They still end as soon as the element
// is there; the test's own timeout bounds the wait. At a load of 25 (a CI run beside other work) a
// view's first render took up to 20 s.
configure({ asyncUtilTimeout: 60_000 });
await loadStartingLanguage();

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

Object.defineProperty(HTMLElement.prototype, 'getBoundingClientRect', {
  configurable: true,
  value() {
    return { x: 0, y: 0, top: 0, left: 0, right: 1000, bottom: 600, width: 1000, height: 600, toJSON() {} };
  },
});
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 600 });
Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 1000 });
if (!Element.prototype.scrollTo) Element.prototype.scrollTo = () => {};
