/**
 * `npm start -- [options]`: builds the desktop app into out/desktop (electron-vite), then runs it
 * with Electron; the options go to the app (`npm start -- --demo`, see main/desktop/args.ts).
 *
 * Without an Electron binary (the electron package downloads it at first use, which some machines
 * cannot do), it says so and how to get one, rather than failing in the middle of a download.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'electron-vite';
import { findElectronBinary } from './electron-binary.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

console.log('Building the desktop app (out/desktop)…');
await build({ configFile: join(root, 'electron.vite.config.ts'), logLevel: 'warn' });

const binary = findElectronBinary();
if (binary.path === null) {
  console.error(
    [
      '',
      'The desktop app is built, but it cannot be started: there is no Electron binary on this machine.',
      `  ${binary.reason}.`,
      '',
      'Without Electron, the same engine and dashboard run in a browser: npm run serve -- --demo',
    ].join('\n'),
  );
  process.exit(1);
}

const env = { ...process.env };
// Set by some editors' terminals: Electron would then run as plain Node.
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(binary.path, ['.', ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
