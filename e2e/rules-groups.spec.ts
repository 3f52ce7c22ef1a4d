/**
 * Rules and groups through the dashboard. Apps are created and deleted on Clever Cloud while the
 * dashboard is open, so this spec runs its own simulator (`npm run simulator`, whose control API can
 * do that) and a headless server connected to it as an account (`--api-url`, the simulator's
 * credentials in the environment), at real time with a one-second sweep.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { appRow, badge, historyList, openDetails, SHELL } from './fixtures.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Run an npm script until `ready` matches its output; its process group is stopped at the end. */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string; match: RegExpExecArray }> {
  const child = spawn('npm', ['run', '--silent', ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, output: () => output, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${code}):\n${output}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A view's button in the navigation (its name may end with a count). */
function nav(page: Page, view: string) {
  return page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: new RegExp(`^${view}`) });
}

interface World {
  page: Page;
  /** The simulator's control API. */
  sim<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** The reaper's admin API. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

async function withWorld(page: Page, body: (w: World) => Promise<void>): Promise<void> {
  const children: ChildProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-e2e-rules-'));
  try {
    const env = { ...process.env };
    delete env.REAPER_ADMIN_TOKEN;
    const simulator = await run(
      ['simulator', '--', '--port', '0', '--scenario', 'empty'],
      env,
      /API_HOST=(\S+) CLEVER_TOKEN=(\S+) CLEVER_SECRET=(\S+)\s+OAUTH_CONSUMER_KEY=(\S+) OAUTH_CONSUMER_SECRET=(\S+)/,
    );
    children.push(simulator.child);
    const [, simUrl, token, secret, consumerKey, consumerSecret] = simulator.match;
    const server = await run(
      ['serve', '--', '--port', '0', '--data-dir', dataDir, '--api-url', simUrl!],
      {
        ...env,
        CLEVER_TOKEN: token,
        CLEVER_SECRET: secret,
        OAUTH_CONSUMER_KEY: consumerKey,
        OAUTH_CONSUMER_SECRET: consumerSecret,
      },
      /Dashboard: (\S+)/,
    );
    children.push(server.child);
    const dashboardUrl = server.match[1]!;
    const url = new URL(dashboardUrl).origin;
    const adminToken = decodeURIComponent(new URL(dashboardUrl).hash.replace(/^#token=/, ''));
    const call = async (
      base: string,
      headers: Record<string, string>,
      method: string,
      path: string,
      b?: unknown,
    ) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(b === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const world: World = {
      page,
      sim: async (method, path, b) => (await call(simUrl!, {}, method, path, b)).body,
      api: (method, path, b) => call(url, { authorization: `Bearer ${adminToken}` }, method, path, b),
    };
    // A sweep every second: a new app is seen within a second or two.
    expect(
      (await world.api('PATCH', '/api/settings', { intervalMs: 1000, fastIntervalMs: 1000 })).status,
    ).toBe(200);
    await page.goto(dashboardUrl);
    await expect(nav(page, 'Apps')).toBeVisible();
    await body(world);
  } finally {
    for (const child of children.reverse()) await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test.describe('rules and groups', () => {
  test.beforeEach(async ({ page: _page }, testInfo) => {
    testInfo.skip(
      testInfo.project.name !== 'web' || SHELL !== 'web',
      'runs its own simulator and server: the web dashboard only',
    );
  });

  test('a rule picks up an app created on Clever Cloud while the dashboard is open, and releases one deleted', async ({
    page,
  }) => {
    await withWorld(page, async ({ sim }) => {
      const first = await sim<{ id: string }>('POST', '/_sim/apps', { name: 'review-1' });
      await sim('POST', '/_sim/apps', { name: 'prod-shop' });

      // The rule editor previews what the rule takes before it is saved.
      await nav(page, 'Routes').click();
      await page.getByRole('button', { name: 'New rule' }).click();
      const editor = page.getByRole('form', { name: 'New rule' });
      await editor.getByLabel('Name pattern').fill('review-*');
      await editor.getByLabel('Wake-proxy hosts').fill('{name}.review.localhost');
      const preview = editor.getByRole('region', { name: 'Apps this rule matches now' });
      await expect(preview.locator('[data-preview-app="review-1"]')).toContainText(
        'managed by this rule · review-1.review.localhost',
      );
      await expect(preview.locator('[data-preview-app]')).toHaveCount(1);
      await editor.getByRole('button', { name: 'Create the rule' }).click();
      await expect(page.locator('tr[data-rule="review-*"]')).toBeVisible();

      await nav(page, 'Apps').click();
      await expect(badge(appRow(page, 'review-1'))).toHaveText('Up');
      await expect(appRow(page, 'prod-shop')).toHaveCount(0);

      // Created on Clever Cloud with the dashboard open: managed from the next sweep.
      await sim('POST', '/_sim/apps', { name: 'review-2' });
      await expect(badge(appRow(page, 'review-2'))).toHaveText('Up');

      // Deleted on Clever Cloud: released and forgotten, its history kept.
      await sim('DELETE', `/_sim/apps/${first.id}`);
      await expect(appRow(page, 'review-1')).toHaveCount(0);
      await expect(page.getByText('review-1 was released')).toBeVisible();
      await expect(appRow(page, 'review-2')).toBeVisible();
    });
  });

  test('a group of three wakes together from one request', async ({ page }) => {
    await withWorld(page, async ({ sim, api }) => {
      const names = ['shop-front-pr-7', 'shop-api-pr-7', 'shop-worker-pr-7'];
      for (const name of names) {
        await sim('POST', '/_sim/apps', { name, state: 'SHOULD_BE_DOWN', deployDurationMs: 3000 });
      }
      const created = await api('POST', '/api/rules', {
        pattern: 'shop-*-pr-*',
        group: 'pr-{2}',
        gracePeriodMs: 10 * 60_000,
      });
      expect(created.status).toBe(201);
      for (const name of names) {
        await expect(badge(appRow(page, name))).toHaveText('Asleep');
        await expect(appRow(page, name)).toContainText('group pr-7');
      }

      // One request, for the API only: the whole group wakes.
      await appRow(page, 'shop-api-pr-7').getByRole('button', { name: 'Wake shop-api-pr-7' }).click();
      for (const name of names) await expect(badge(appRow(page, name))).toHaveText('Up', { timeout: 30_000 });

      const dialog = await openDetails(page, 'shop-front-pr-7');
      await expect(historyList(dialog)).toContainText('woken with its group (request for shop-api-pr-7)');
      const members = dialog.getByRole('list', { name: 'Members of the group pr-7' });
      await expect(members.locator('[data-member]')).toHaveCount(3);
      await expect(members).toContainText('shop-worker-pr-7 — Up');
    });
  });
});
