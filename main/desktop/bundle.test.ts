/**
 * The desktop build as electron-builder would package it: electron-vite builds out/desktop, then
 * the built main process runs in plain Node on the fake Electron (testing/run-bundle.ts). Catches
 * what only the bundle can get wrong: its format, a dependency left out or a Node-only one pulled
 * in, the paths from main/ to the page and the preload, the sandboxed preload's requires.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/clocks.ts';
import { buildE2eScenario } from '../simulator/scenarios.ts';

/** The e2e scenario's apps, every one under a route. */
const E2E_APPS = buildE2eScenario(new ManualClock(0)).apps.length;

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const out = join(root, 'out', 'desktop');

/** The newest modification under a path (tests and node_modules aside). */
function newest(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || /\.test\.tsx?$/.test(entry)) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

function isStale(): boolean {
  const built = [join(out, 'main', 'index.js'), join(out, 'preload', 'index.cjs'), join(out, 'package.json')];
  if (!built.every(existsSync)) return true;
  const sources = ['main', 'shared', 'renderer', 'electron.vite.config.ts', 'vite.config.ts', 'package.json'];
  const oldestBuilt = Math.min(...built.map((f) => statSync(f).mtimeMs));
  return Math.max(...sources.map((p) => newest(join(root, p)))) > oldestBuilt;
}

describe('the desktop build', () => {
  // `npm run test:unit` builds first, alone (a build beside the timing-sensitive engine tests would
  // slow them down on a small machine); run directly, this builds when the build is missing or stale.
  beforeAll(async () => {
    if (!isStale()) return;
    await run(
      process.execPath,
      [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
      { cwd: root },
    );
  }, 120_000);

  it('starts in Node on a fake Electron: finds its page and preload, answers the dashboard, draws the tray, quits', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reaper-bundle-'));
    const { stdout } = await run(
      process.execPath,
      [join(root, 'main/desktop/testing/run-bundle.ts'), join(out, 'main', 'index.js'), dataDir],
      { cwd: root, timeout: 60_000 },
    );
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(seen).toEqual({
      page: true,
      preload: true,
      apps: E2E_APPS,
      tooltip: expect.stringMatching(new RegExp(`^Clever Reaper \\(demo\\): ${E2E_APPS} apps`)),
      quit: true,
    });
  }, 60_000);

  it('imports nothing but Electron and Node built-ins in its main process (no node_modules is packaged)', () => {
    const main = readFileSync(join(out, 'main', 'index.js'), 'utf8');
    const imported = new Set([...main.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]));
    expect([...imported].filter((s) => s !== 'electron' && !s?.startsWith('node:'))).toEqual([]);
  });

  it('has a preload that requires only electron, as a sandboxed preload must', () => {
    const preload = readFileSync(join(out, 'preload', 'index.cjs'), 'utf8');
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['electron']);
    // One thing exposed to the page: the bridge, as window.reaper (never ipcRenderer itself).
    expect([...preload.matchAll(/exposeInMainWorld\(\s*"(\w+)"/g)].map((m) => m[1])).toEqual(['reaper']);
  });

  it('describes the packaged app with a package.json of its own, without dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg).toMatchObject({
      name: 'clever-reaper',
      productName: 'Clever Reaper',
      main: 'main/index.js',
      type: 'module',
    });
    expect(pkg).not.toHaveProperty('dependencies');
  });

  it('keeps the CSP of the dashboard in the built page', () => {
    const html = readFileSync(join(out, 'renderer', 'index.html'), 'utf8');
    expect(html).toContain("default-src 'none'; script-src 'self'");
  });
});
