/**
 * `npm run serve` first builds the dashboard when out/renderer is missing or older than its sources
 * (renderer/, shared/, vite.config.ts), so a fresh checkout serves the current dashboard.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'out', 'renderer', 'index.html');

function newest(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

const sources = ['renderer', 'shared', 'vite.config.ts'].map((p) => join(root, p));
const stale = !existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
if (stale) {
  console.log('Building the dashboard (out/renderer)…');
  const { build } = await import('vite');
  process.chdir(root);
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
}
