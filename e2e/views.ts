/**
 * Every view of the dashboard reached by its address (`#/apps/app_…`, `#/routes/route_…`: the
 * dashboard keeps its place in the URL fragment, shared/nav-route.ts), and what says it is drawn,
 * found without reading any text: the accessibility and screenshot specs run in English and in
 * French, on screens whose words other changes may rewrite.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, type Reaper } from './fixtures.ts';

/** The dashboard, open and drawn, in the page's language (`<html lang>` set from the browser's). */
export async function openDashboard(page: Page, reaper: Reaper, language: 'en' | 'fr'): Promise<void> {
  await page.goto(reaper.dashboardUrl);
  await expect(page.locator('tr[data-app]').first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** Go to a place of the dashboard by its address, as a pasted link or Back would. */
/** The messages of the browser's own dialogs (alert, confirm, beforeunload) from now on, each dismissed. */
export function browserDialogsOf(page: Page): string[] {
  const messages: string[] = [];
  page.on('dialog', (d) => {
    messages.push(d.message());
    d.dismiss().catch(() => {});
  });
  return messages;
}

export async function goTo(page: Page, hash: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
}

/** The id of the route of an app, from the admin API. */
export async function routeIdOf(reaper: Reaper, appName: string): Promise<string> {
  const appId = await reaper.appId(appName);
  const { body } = await reaper.api<{ id: string }[]>('GET', `/api/routes?appId=${appId}`);
  if (!body[0]) throw new Error(`no route for ${appName}`);
  return body[0].id;
}

/** The route editor's first range, its start time: the field a bad range is typed into. */
export function firstRangeStart(page: Page): Locator {
  return page.locator('ul.ranges li').first().locator('input').nth(1);
}

/** Let what a change set in motion settle (a fade, a live region) before a check or a screenshot. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
  );
}
