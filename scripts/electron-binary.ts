/**
 * Where the Electron binary is, or why there is none, found without running the `electron`
 * package: its index.js downloads the binary at first use (from outside the package registry), so
 * a machine that cannot reach the download would try, fail and print a stack trace. This reads the
 * same files it reads (dist/ and path.txt) and honours ELECTRON_OVERRIDE_DIST_PATH the same way.
 *
 * Used by `npm start` (a clear message instead of a failed download) and the Electron end-to-end
 * project (a clear skip).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ElectronBinary = { path: string } | { path: null; reason: string };

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The executable inside dist/ per platform (what the electron package's install.js extracts). */
function platformPath(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

export function findElectronBinary(
  env: NodeJS.ProcessEnv = process.env,
  root: string = ROOT,
  platform: NodeJS.Platform = process.platform,
): ElectronBinary {
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json'))) {
    return { path: null, reason: 'the electron package is not installed (npm install)' };
  }
  const pathFile = join(pkg, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : platformPath(platform);
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const path = override ? join(override, executable) : join(pkg, 'dist', executable);
  if (existsSync(path)) return { path };
  return {
    path: null,
    reason: override
      ? `ELECTRON_OVERRIDE_DIST_PATH is set, but ${path} does not exist`
      : `${join('node_modules', 'electron', 'dist')} is empty: the electron package downloads its binary ` +
        'at first use, from outside the package registry. Run `npx install-electron` where that download ' +
        'works, or point ELECTRON_OVERRIDE_DIST_PATH at an Electron build of the same version',
  };
}
