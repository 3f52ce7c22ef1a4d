/**
 * What the security scan looks at: the code the desktop app ships, copied with the repository's
 * layout into one folder (the scanner takes one folder; findings then name repository paths).
 *
 * main/ (the main process bundle: the shell in main/desktop/ with its preload, and the engine it
 * runs), shared/, renderer/ (the page, and renderer/index.html with the CSP), the build configs
 * and package.json (the scanner reads the Electron version and the scripts). Tests and test
 * helpers are left out: they never run in the app.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const SCANNED_FOLDERS = ['main', 'shared', 'renderer'];
export const SCANNED_FILES = ['package.json', 'electron.vite.config.ts', 'vite.config.ts'];
/** The extensions the scanner reads (besides package.json). */
const EXTENSIONS = /\.(ts|tsx|js|jsx|mjs|cjs|html|htm)$/;
const TEST_FILE = /\.test\.(ts|tsx|js)$/;
const TEST_FOLDERS = new Set(['node_modules', 'testing', 'test']);

/** The files of the app that the scan covers, relative to the repository. */
export function shippedSources(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!TEST_FOLDERS.has(entry.name)) walk(path);
      } else if (EXTENSIONS.test(entry.name) && !TEST_FILE.test(entry.name)) {
        files.push(relative(root, path).split('\\').join('/'));
      }
    }
  };
  for (const folder of SCANNED_FOLDERS) walk(join(root, folder));
  for (const file of SCANNED_FILES) if (existsSync(join(root, file))) files.push(file);
  return files.sort();
}

/** Copy the files into `dest` (emptied first), keeping their paths. */
export function stage(root: string, files: readonly string[], dest: string): void {
  rmSync(dest, { recursive: true, force: true });
  for (const file of files) {
    const target = join(dest, file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(root, file), target);
  }
}

/**
 * electronegativity skips a finding whose line carries an `eng-disable` comment. Findings are
 * explained in the allowlist, where the reason is reviewed, never silenced in the code: such a
 * comment fails the scan. Returns "file:line" of each.
 */
export function inlineDisables(root: string, files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const path = join(root, file);
    if (!statSync(path).isFile()) continue;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/eng-disable/i.test(line)) found.push(`${file}:${i + 1}`);
      });
  }
  return found;
}
