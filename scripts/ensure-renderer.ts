/**
 * `npm run serve` first builds the dashboard when out/renderer (the page) or out/renderer-ssr (its
 * first screen rendered by the server, issue 26) is missing or older than its sources (renderer/,
 * shared/, vite.config.ts), so a fresh checkout serves the current dashboard. Both, as `vite build`
 * does (the config's `builder`: every environment).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = [join(root, 'out', 'renderer', 'index.html'), join(root, 'out', 'renderer-ssr', 'ssr.js')];

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
const stale =
  built.some((file) => !existsSync(file)) ||
  Math.max(...sources.map(newest)) > Math.min(...built.map((file) => statSync(file).mtimeMs));
if (stale) {
  console.log('Building the dashboard (out/renderer, out/renderer-ssr)…');
  const { createBuilder } = await import('vite');
  process.chdir(root);
  const builder = await createBuilder({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  await builder.buildApp();
}
