/**
 * End-to-end tests of the web dashboard: Debian Chromium against `npm run serve` on the embedded
 * simulator (the real engine, real HTTP and server-sent events). Each test starts its own server on
 * a free port with its own data directory (see e2e/fixtures.ts), so tests never share state.
 * The `electron` project runs the same specs on the desktop app (REAPER_E2E_SHELL=electron).
 *
 * Never `playwright install`: the browser is the system's Chromium (CHROMIUM_PATH to use another).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Two cores: one test at a time keeps the time-scaled engine and the browser from starving each other.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    timezoneId: 'Europe/Paris',
    locale: 'en-GB',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Chromium's omnibox popup (a WebUI page) loaded for each new window: see bench/dashboard.ts.
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,PreloadTopChromeWebUI',
      ],
    },
  },
  projects: [
    { name: 'web' },
    // The same specs on the desktop app (e2e/desktop-app.ts): `npm run e2e:electron` builds it and
    // runs this project under xvfb; without an Electron binary every test is skipped, saying why.
    { name: 'electron', timeout: 120_000 },
  ],
});
