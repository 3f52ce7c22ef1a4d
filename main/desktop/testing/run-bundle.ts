/**
 * `node main/desktop/testing/run-bundle.ts <out/desktop/main/index.js> <data dir>`: runs the BUILT
 * main process in plain Node on the fake Electron (its `import 'electron'` resolved to
 * fake-electron.ts), as bundle.test.ts does, and prints one JSON line saying what it saw: that the
 * bundle loads (ESM, node:sqlite, everything else bundled), finds its page and preload next to it,
 * answers the dashboard, draws the tray and quits.
 */
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [bundle, dataDir] = process.argv.slice(2);
if (!bundle || !dataDir) throw new Error('usage: run-bundle.ts <main bundle> <data dir>');

const fakeUrl = new URL('./fake-electron.ts', import.meta.url).href;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'electron') return { url: fakeUrl, shortCircuit: true };
    return next(specifier, context);
  },
});

type Fake = typeof import('./fake-electron.ts');
const electron = (await import('electron')) as unknown as Fake;
const { app, fake } = electron;

const until = async (what: string, check: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

process.argv = [process.execPath, bundle, '--demo', '--scenario', 'e2e', '--data-dir', dataDir];
await import(pathToFileURL(bundle).href);
app.becomeReady();
await until('the tray', () => fake.trays.length === 1);
const win = fake.windows[0]!;
await until('the window', () => win.visible);

const page = fileURLToPath(win.url);
const preload = String((win.options.webPreferences as { preload: string }).preload);
const handler = fake.handlers.get('reaper:call') as unknown as (
  event: unknown,
  name: string,
  input: unknown,
) => Promise<{ ok: boolean; value?: { apps: { name: string }[] } }>;
const snapshot = await handler(
  { sender: win.webContents, senderFrame: { url: win.url, parent: null } },
  'snapshot',
  {},
);
await until('the tooltip', () => fake.trays[0]!.tooltip.includes('apps'));
const tooltip = fake.trays[0]!.tooltip;
app.quit();
await until('the quit', () => fake.quit);

console.log(
  JSON.stringify({
    page: existsSync(page),
    preload: existsSync(preload),
    apps: snapshot.value?.apps.length ?? 0,
    tooltip,
    quit: fake.quit,
  }),
);
process.exit(0);
