/**
 * A headless server per test: `npm run serve -- --demo --scenario e2e --time-scale N --port 0
 * --data-dir <temp>` (or without --demo, for the first-run screen), its dashboard URL read from what
 * it prints, and a small admin API client for the test to drive and check state.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { type Desktop, launchDesktop } from './desktop-app.ts';
import type { Reaper, ReaperOptions } from './reaper.ts';

export type { Reaper };

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function startServer(
  args: string[],
): Promise<{ child: ChildProcess; dashboardUrl: string; log: () => string }> {
  const env = { ...process.env };
  delete env.REAPER_ADMIN_TOKEN;
  const child = spawn('npm', ['run', '--silent', 'serve', '--', ...args], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Dashboard: (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, dashboardUrl: match[1]!, log: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}):\n${output}`));
    });
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

/** The admin API of a running reaper (the headless server, or the desktop app with --admin-port). */
function adminClient(url: string, token: string): Pick<Reaper, 'api' | 'appId' | 'now'> {
  const api: Reaper['api'] = async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return {
    api,
    async appId(name) {
      const { body } = await api<{ name: string; appId: string }[]>('GET', '/api/apps');
      const app = body.find((a) => a.name === name);
      if (!app) throw new Error(`no app ${name}`);
      return app.appId;
    },
    async now() {
      return (await api<{ now: number }>('GET', '/api/status')).body.now;
    },
  };
}

/**
 * Which shell the specs drive: the web dashboard of the headless server (the `web` project), or
 * the desktop app (the `electron` project, run by `npm run e2e:electron`, which sets this).
 */
export const SHELL: 'web' | 'electron' = process.env.REAPER_E2E_SHELL === 'electron' ? 'electron' : 'web';

/** The languages a spec checks a view in: each with the browser's locale. */
export const LANGUAGES = [
  { language: 'en', locale: 'en-GB' },
  { language: 'fr', locale: 'fr-FR' },
] as const;

/** The window sizes of the review and word checks. */
export const REVIEW_SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

function skipOtherShell(testInfo: TestInfo): void {
  if (testInfo.project.name === SHELL) return;
  testInfo.skip(
    true,
    SHELL === 'web'
      ? 'the electron project runs through `npm run e2e:electron` (under xvfb where there is no display)'
      : 'REAPER_E2E_SHELL=electron: only the electron project runs',
  );
}

const webTest = base.extend<{ reaper: Reaper } & ReaperOptions>({
  scenario: ['e2e', { option: true }],
  timeScale: [20, { option: true }],
  reaper: async ({ scenario, timeScale }, use, testInfo) => {
    skipOtherShell(testInfo);
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-e2e-'));
    const args = ['--port', '0', '--data-dir', dataDir];
    if (scenario) args.push('--demo', '--scenario', scenario, '--time-scale', String(timeScale));
    const { child, dashboardUrl, log } = await startServer(args);
    const url = new URL(dashboardUrl).origin;
    const token = decodeURIComponent(new URL(dashboardUrl).hash.replace(/^#token=/, ''));
    const reaper: Reaper = { url, dashboardUrl, token, ...adminClient(url, token) };
    try {
      await use(reaper);
    } finally {
      await stopServer(child);
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('server.log', { body: log(), contentType: 'text/plain' });
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
});

/** The same fixtures on the desktop app: `page` is its window (no browser is launched). */
const desktopTest = webTest.extend<{ desktop: Desktop }>({
  desktop: async ({ scenario, timeScale }, use, testInfo) => {
    skipOtherShell(testInfo);
    const { desktop, close } = await launchDesktop({ scenario, timeScale }, testInfo, adminClient);
    try {
      await use(desktop);
    } finally {
      await close();
    }
  },
  reaper: async ({ desktop }, use) => use(desktop.reaper),
  page: async ({ desktop }, use) => use(desktop.page),
});

// The specs use the web fixtures' names only; the desktop's `desktop` stays internal.
export const test = (SHELL === 'electron' ? desktopTest : webTest) as typeof webTest;

export { expect };

/** The row of an app in the apps table. */
export function appRow(page: Page, name: string): Locator {
  return page.locator(`tr[data-app="${name}"]`);
}

/** The console state badge of a row (or of the details). */
export function badge(scope: Locator): Locator {
  return scope.locator('.badge');
}

/** Open an app's details from its row. */
export async function openDetails(page: Page, name: string): Promise<Locator> {
  await appRow(page, name).getByRole('link', { name, exact: true }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  return dialog;
}

export function historyList(dialog: Locator): Locator {
  return dialog.getByRole('list', { name: 'Transitions and actions, newest first' });
}
