/**
 * The desktop app for the `electron` project: `_electron.launch` of this checkout's build
 * (out/desktop, built by `npm run e2e:electron`) with its own data folder, the demo scenario and
 * the admin API on a free loopback port, so the dashboard specs run unchanged: `page` is the app's
 * window, `reaper.api` the admin API, `reaper.dashboardUrl` the window's own page.
 *
 * Skipped, with the reason, where there is no Electron binary (the electron package downloads it
 * at first use, which some machines cannot do).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page, type TestInfo } from '@playwright/test';
import { findElectronBinary } from '../scripts/electron-binary.ts';
import type { Reaper, ReaperOptions } from './reaper.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Desktop {
  app: ElectronApplication;
  page: Page;
  reaper: Reaper;
}

export async function launchDesktop(
  { scenario, timeScale }: ReaperOptions,
  testInfo: TestInfo,
  client: (url: string, token: string) => Pick<Reaper, 'api' | 'appId' | 'now'>,
): Promise<{ desktop: Desktop; close(): Promise<void> }> {
  const binary = findElectronBinary();
  if (binary.path === null) testInfo.skip(true, `no Electron binary on this machine: ${binary.reason}`);
  const executablePath = binary.path!;
  const dataDir = mkdtempSync(join(tmpdir(), 'reaper-e2e-desktop-'));
  const args = [ROOT, '--data-dir', dataDir, '--admin-port', '0', '--disable-gpu'];
  if (scenario) args.push('--demo', '--scenario', scenario, '--time-scale', String(timeScale));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  for (const key of ['REAPER_ADMIN_TOKEN', 'ELECTRON_RENDERER_URL', 'ELECTRON_RUN_AS_NODE']) delete env[key];
  // What the web project sets in its browser context: the engine's times read as in Paris, in 24 h.
  env.TZ = 'Europe/Paris';
  env.LANG = 'en_GB.UTF-8';
  const app = await _electron.launch({
    executablePath,
    args: [...args, '--lang=en-GB'],
    cwd: ROOT,
    env,
    timeout: 60_000,
  });
  let output = '';
  app.process().stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  app.process().stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const close = async () => {
    const exited = new Promise<void>((resolve) => app.process().once('exit', () => resolve()));
    await Promise.race([app.close().catch(() => undefined), new Promise((r) => setTimeout(r, 15_000))]);
    if (app.process().exitCode === null) app.process().kill('SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('desktop.log', { body: output, contentType: 'text/plain' });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the app did not start its admin API:\n${output}`)),
        60_000,
      );
      const poll = setInterval(() => {
        const match = /Admin API: (\S+)\/api/.exec(output);
        if (match) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve(match[1]!);
        }
      }, 50);
    });
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    const reaper: Reaper = { url, dashboardUrl: page.url(), token, ...client(url, token) };
    return { desktop: { app, page, reaper }, close };
  } catch (error) {
    await close();
    throw error;
  }
}
