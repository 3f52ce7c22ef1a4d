/**
 * `npm run e2e:electron [-- playwright options]`: the dashboard's end-to-end specs on the desktop
 * app (the `electron` Playwright project, REAPER_E2E_SHELL=electron). Builds out/desktop, and runs
 * under xvfb-run on a Linux machine without a display.
 *
 * Without an Electron binary, Playwright still runs the project, and reports every test skipped
 * with the reason: the specs are wired, this machine cannot launch them.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'electron-vite';
import { findElectronBinary } from './electron-binary.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const binary = findElectronBinary();
if (binary.path === null) {
  console.log(`e2e (electron): no Electron binary on this machine, the tests are skipped: ${binary.reason}.`);
} else {
  console.log(`e2e (electron): building the desktop app, then running it with ${binary.path}`);
  await build({ configFile: join(root, 'electron.vite.config.ts'), logLevel: 'warn' });
}

const playwright = [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '--project', 'electron'];
const headless = process.platform === 'linux' && !process.env.DISPLAY && binary.path !== null;
const [command, args] = headless
  ? ['xvfb-run', ['-a', '-s', '-screen 0 1280x1024x24', process.execPath, ...playwright]]
  : [process.execPath, playwright];
const child = spawn(command, [...args, ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, REAPER_E2E_SHELL: 'electron' },
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
