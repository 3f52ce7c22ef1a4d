/**
 * The first screen rendered by the server (issue 26): a signed-in browser's new context gets the rows
 * in the page's HTML (the answer's body), its stylesheet in it (allowed by its hash), and the id of
 * the data they were rendered with, which its head preloads, once; the page hydrates it with that
 * data without asking for the snapshot, without a mismatch, and its controls answer
 * (the details open, a Reset reaches the engine). The language chosen in Settings is the server's
 * too (its cookie). Not signed in: the page as built, the token screen.
 */
import type { Browser, BrowserContext, ConsoleMessage, Page } from '@playwright/test';
import { FIRST_SCREEN_PATH, RENDERING_ATTRIBUTE, VIEW_HEIGHT_COOKIE } from '../shared/first-screen.ts';
import { appRow, expect, openDetails, type Reaper, SHELL, test } from './fixtures.ts';

test.skip(SHELL === 'electron', 'the desktop window loads the dashboard from its files, not from a server');

const HYDRATED = 'reaper:hydrated';

/** A context signed in through the token screen, its cookies (and storage) kept for new contexts. */
async function signedInState(browser: Browser, reaper: Reaper, locale: string, language?: 'fr') {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  await page.goto(reaper.url);
  await page.locator('#token').fill(reaper.token);
  await page.locator('form.card button[type=submit]').click();
  await expect(page.locator('tbody tr[data-app]').first()).toBeVisible();
  if (language) {
    await page.locator('nav a[href$="/settings"]').click();
    await page.getByLabel('Language of the dashboard').selectOption(language);
    await expect(page.getByRole('heading', { level: 1, name: 'Paramètres' })).toBeVisible();
  }
  const state = await context.storageState();
  await context.close();
  return state;
}

/** What a page says on its console, errors and warnings only. */
function consoleProblems(page: Page): string[] {
  const said: string[] = [];
  const keep = (m: ConsoleMessage) => {
    if (m.type() === 'error' || m.type() === 'warning') said.push(`${m.type()}: ${m.text()}`);
  };
  page.on('console', keep);
  page.on('pageerror', (e) => said.push(`pageerror: ${e.message}`));
  return said;
}

async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, HYDRATED);
}

async function open(context: BrowserContext, reaper: Reaper) {
  const page = await context.newPage();
  const problems = consoleProblems(page);
  const snapshots: string[] = [];
  const firstScreens: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/api/snapshot') snapshots.push(r.url());
    if (path.startsWith(FIRST_SCREEN_PATH)) firstScreens.push(path);
  });
  const response = await page.goto(reaper.url);
  expect(response?.status()).toBe(200);
  const html = (await response?.text()) ?? '';
  return {
    page,
    problems,
    snapshots,
    firstScreens,
    html,
    policy: response?.headers()['content-security-policy'],
  };
}

test('signed in: the rows in the HTML, hydrated with the data it names, a click works', async ({
  browser,
  reaper,
}) => {
  const storageState = await signedInState(browser, reaper, 'en-GB');
  const context = await browser.newContext({ storageState, locale: 'en-GB' });
  const { page, problems, snapshots, firstScreens, html, policy } = await open(context, reaper);

  // In the answer itself, before any script ran: the header, the rows, the stylesheet (allowed by its
  // hash: a refused one would be on the console, and the page unstyled), the id of their data.
  expect(html).toMatch(/<div id="root"><div class="shell">/);
  expect(html).toContain('data-app="shop-staging"');
  expect(html).toContain('Reset partner-portal');
  const hashed = /style-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/;
  expect(html).toMatch(hashed);
  expect(policy).toMatch(hashed);
  expect(html).toContain('<style>');
  expect(html).not.toContain('rel="stylesheet"');
  const firstId = new RegExp(`<html lang="en" ${RENDERING_ATTRIBUTE}="([\\w-]+)">`).exec(html)?.[1];
  expect(firstId).toBeDefined();
  await expect(page.locator('.toolbar')).toHaveCSS('display', 'flex');

  await hydrated(page);
  await expect(page.locator('.connection.live')).toBeVisible();
  // Details: the row's button answers (hydrated: React's handlers are on the server's DOM).
  const dialog = await openDetails(page, 'shop-staging');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Reset (the app in Error): reaches the engine, which records it.
  const id = await reaper.appId('partner-portal');
  await appRow(page, 'partner-portal').getByRole('button', { name: 'Reset partner-portal' }).click();
  await expect
    .poll(async () => {
      const { body } = await reaper.api<{ reason: string }[]>('GET', `/api/apps/${id}/history?limit=20`);
      return body.some((h) => h.reason === 'reset from the console');
    })
    .toBe(true);
  expect(snapshots, 'the snapshot is the page’s: not asked for again').toEqual([]);
  expect(firstScreens, 'the page’s data, asked for once (the preload, taken by the script)').toEqual([
    `${FIRST_SCREEN_PATH}/${firstId}`,
  ]);
  expect(problems).toEqual([]);
  await context.close();
});

test('signed in, French chosen in Settings: the server writes the first screen in French', async ({
  browser,
  reaper,
}) => {
  const storageState = await signedInState(browser, reaper, 'en-GB', 'fr');
  expect(storageState.cookies.find((c) => c.name === 'reaper_language')?.value).toBe('fr');
  const context = await browser.newContext({ storageState, locale: 'en-GB' });
  const { page, problems, html } = await open(context, reaper);
  expect(html).toContain(`<html lang="fr" ${RENDERING_ATTRIBUTE}="`);
  expect(html).toContain('Réinitialiser partner-portal');
  expect(html).toContain('data-app="shop-staging"');
  await hydrated(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('link', { name: /^Paramètres/ })).toBeVisible();
  await openDetails(page, 'shop-staging');
  expect(problems).toEqual([]);
  await context.close();
});

test('not signed in, or with a cookie that is no session: the page as built, the token screen', async ({
  browser,
  reaper,
}) => {
  for (const cookies of [[], [{ name: 'reaper_session', value: 'not-a-session', url: reaper.url }]]) {
    const context = await browser.newContext({ locale: 'en-GB' });
    await context.addCookies(cookies);
    const { page, problems, html } = await open(context, reaper);
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain(RENDERING_ATTRIBUTE);
    expect(html).not.toContain('data-app=');
    await expect(page.locator('#token')).toBeVisible();
    // The refused "who am I" of the bad cookie is the browser's own console line, nothing else.
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    await context.close();
  }
});

test.describe('signed in, a thousand apps', () => {
  test.use({ scenario: 'fleet', timeScale: 5 });

  test('the server renders the rows that fill the table, as the visit before measured it', async ({
    browser,
    reaper,
  }) => {
    const viewport = { width: 1280, height: 800 };
    const heightIn = (cookies: readonly { name: string; value: string }[]) =>
      Number(cookies.find((c) => c.name === VIEW_HEIGHT_COOKIE)?.value);
    const rowsIn = (html: string) => html.match(/<tr [^>]*data-app="/g)?.length ?? 0;
    // Signed in through the token screen: no rows from the server, the window's height kept.
    const storageState = await signedInState(browser, reaper, 'en-GB');
    const windowHeight = heightIn(storageState.cookies);

    // The next visit's rows fill that height; once on screen, the page keeps its table's.
    const second = await browser.newContext({ storageState, locale: 'en-GB', viewport });
    const visit = await open(second, reaper);
    await hydrated(visit.page);
    const table = await visit.page.locator('.table-scroll').evaluate((e) => e.clientHeight);
    const row = await visit.page
      .locator('tbody tr[data-app]')
      .first()
      .evaluate((e) => e.offsetHeight);
    expect(table).toBeLessThan(Math.min(windowHeight, viewport.height));
    expect(heightIn(await second.cookies())).toBe(table);
    const windowRows = rowsIn(visit.html);
    expect(windowRows).toBe(Math.ceil(windowHeight / row));
    const kept = await second.storageState();
    await second.close();

    // And the visit after renders as many rows as the table shows, not as the window would hold.
    const third = await browser.newContext({ storageState: kept, locale: 'en-GB', viewport });
    const again = await open(third, reaper);
    expect(rowsIn(again.html)).toBe(Math.ceil(table / row));
    expect(rowsIn(again.html)).toBeLessThan(windowRows);
    await hydrated(again.page);
    // The rows not rendered are held by spacers whose height the page's CSP lets through (set from
    // the script, no style attribute in the server's HTML: a blocked one is an error on the console).
    const scrolled = await again.page.locator('.table-scroll').evaluate((e) => e.scrollHeight);
    expect(scrolled).toBeGreaterThanOrEqual(1000 * row);
    expect(again.problems).toEqual([]);
    await third.close();
  });
});
