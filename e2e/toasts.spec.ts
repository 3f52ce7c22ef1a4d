/**
 * Toasts at scale (issue 26, item 10): a dozen apps of the fleet whose next start fails are woken
 * together, at 1280x800 with the details panel open. Their Error toasts are one toast ("12 apps went
 * to Error"), at most a few show, and no toast lies over a control of the table, its toolbar, the
 * header or the details panel (bounding boxes).
 */
import { expect, openDetails, SHELL, test } from './fixtures.ts';

const KINDS = ['web', 'api', 'worker', 'admin', 'docs', 'review', 'preview', 'staging'];
/** The fleet's apps whose next start fails (one in twenty, asleep: see the fleet scenario). */
const FAILING = Array.from({ length: 30 }, (_, k) => 17 + 20 * k).map(
  (i) => `${KINDS[i % KINDS.length]}-${String(i).padStart(4, '0')}`,
);

test.describe('toasts at scale', () => {
  test.use({ scenario: 'fleet', timeScale: 10 });

  test('many apps going to Error make one toast, and no toast covers a control', async ({ page, reaper }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(reaper.dashboardUrl);
    await expect(page.getByRole('table', { name: 'Managed apps' })).toHaveAttribute('aria-rowcount', '1001');
    await openDetails(page, 'admin-0003');

    // The failing apps the reaper manages (the fleet's traffic wakes some of them too: those are
    // refused by the bulk Wake, already waking or in Error, and go to Error all the same).
    const { body: apps } = await reaper.api<{ name: string; appId: string }[]>('GET', '/api/apps');
    const appIds = apps.filter((a) => FAILING.includes(a.name)).map((a) => a.appId);
    expect(appIds.length).toBeGreaterThan(10);
    const woken = await reaper.api('POST', '/api/apps/_bulk', { action: 'wake', appIds });
    expect(woken.status).toBe(200);

    const toasts = page.locator('.toasts .toast');
    // The starts fail one after the other: the grouped toast counts them as they come.
    await expect(
      page.locator('.toasts .toast.alert').filter({ hasText: /\d+ apps went to Error/ }),
    ).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.locator('.toasts .toast.alert')).toHaveCount(1);
    expect(await toasts.count()).toBeLessThanOrEqual(4);
    await page.screenshot({
      path: `e2e/screenshots/${SHELL === 'electron' ? 'desktop/' : ''}toasts-grouped-1280x800.png`,
    });

    // Read in one go in the page (the virtualised table redraws its rows as the apps change), each
    // box cut to what its scrolling ancestors show: a row scrolled out of the table is covered by none.
    type Box = { name: string; box: { x: number; y: number; width: number; height: number } };
    // The function runs in the page (the e2e code has no DOM types: a string, as views.ts settle()).
    const boxes = (selector: string) =>
      page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].flatMap((el) => {
        let { left, top, right, bottom } = el.getBoundingClientRect();
        for (let a = el.parentElement; a; a = a.parentElement) {
          if (getComputedStyle(a).overflow === 'visible') continue;
          const c = a.getBoundingClientRect();
          left = Math.max(left, c.left); top = Math.max(top, c.top);
          right = Math.min(right, c.right); bottom = Math.min(bottom, c.bottom);
        }
        if (right <= left || bottom <= top) return [];
        const name = el.getAttribute('aria-label') ?? el.textContent ?? '';
        return [{ name, box: { x: left, y: top, width: right - left, height: bottom - top } }];
      })`) as Promise<Box[]>;
    const controls = await boxes(
      '.main :is(button, a, input, select, [role="checkbox"]), .drawer :is(button, a, input, select), .header :is(button, a, input, select)',
    );
    expect(controls.length).toBeGreaterThan(10);
    const shown = await boxes('.toasts .toast');
    expect(shown.length).toBeGreaterThan(0);
    const overlaps = (a: Box['box'], b: Box['box']) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const covered = shown.flatMap((t) =>
      controls.filter((c) => overlaps(t.box, c.box)).map((c) => `${t.name} covers ${c.name}`),
    );
    expect(covered).toEqual([]);
  });
});
