/**
 * The desktop app's build (electron-vite): main, preload and the dashboard from the top-level
 * main/, renderer/ and shared/ folders, into out/desktop/ (out/renderer stays the headless
 * server's dashboard, built by vite.config.ts).
 *
 *   out/desktop/main/index.js       the main process, ESM ("type": "module"), every dependency
 *                                   bundled in: the package needs no node_modules
 *   out/desktop/preload/index.cjs   the preload: one CommonJS file, as a sandboxed preload must be
 *   out/desktop/renderer/           the dashboard, with the CSP of renderer/index.html
 *   out/desktop/package.json        the app electron-builder packages (see appPackageJson)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { cspInBuildOnly } from './vite.config.ts';

const root = import.meta.dirname;

/**
 * out/desktop/package.json: what electron-builder packages is out/desktop alone (its
 * `directories.app`), described by this file: the app's name and version, its entry, and no
 * dependency (everything is bundled), so no node_modules goes into the installers.
 */
const appPackageJson: Plugin = {
  name: 'clever-reaper-app-package-json',
  apply: 'build',
  closeBundle() {
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    const app = {
      name: pkg.name,
      productName: pkg.productName,
      version: pkg.version,
      description: pkg.description,
      license: pkg.license,
      author: 'Clever Reaper contributors',
      type: 'module',
      main: 'main/index.js',
    };
    writeFileSync(resolve(root, 'out/desktop/package.json'), `${JSON.stringify(app, null, 2)}\n`);
  },
};

export default defineConfig({
  main: {
    plugins: [appPackageJson],
    build: {
      outDir: resolve(root, 'out/desktop/main'),
      // Bundled: electron-builder then packages out/desktop and package.json, nothing else.
      externalizeDeps: false,
      sourcemap: true,
      lib: { entry: resolve(root, 'main/desktop/index.ts'), formats: ['es'], fileName: () => 'index.js' },
      rolldownOptions: {
        // Built into Electron's Node (22.x), whatever Node runs the build.
        external: ['node:sqlite'],
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/desktop/preload'),
      externalizeDeps: false,
      sourcemap: true,
      lib: { entry: resolve(root, 'main/desktop/preload.ts'), formats: ['cjs'] },
      rolldownOptions: { output: { entryFileNames: 'index.cjs' } },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react(), cspInBuildOnly],
    build: {
      outDir: resolve(root, 'out/desktop/renderer'),
      emptyOutDir: true,
      target: 'es2023',
      minify: true,
      sourcemap: true,
      // No inline script or style in index.html: the CSP allows 'self' only.
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
      rolldownOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
