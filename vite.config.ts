/**
 * The dashboard's build: renderer/ to out/renderer (served by the headless server, loaded by the
 * desktop window). Relative asset paths, so the same build works over http:// and file://.
 */
import react from '@vitejs/plugin-react';
import { defineConfig, type HtmlTagDescriptor, type Plugin } from 'vite';

/** `vite dev` injects inline scripts (React refresh): the page's CSP is for the build only. */
export const cspInBuildOnly: Plugin = {
  name: 'csp-in-build-only',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/\s*<meta\s+http-equiv="Content-Security-Policy"[^>]*>/s, ''),
};

/**
 * renderer/main.tsx is a small first script that starts the dashboard's requests, then imports the
 * bundle (renderer/boot.tsx) dynamically: index.html preloads that bundle and the chunks it imports,
 * so they are fetched alongside the first script, not after it has run.
 */
export const preloadBoot: Plugin = {
  name: 'preload-boot',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const bundle = ctx.bundle;
      if (!bundle) return [];
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const boot = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith('/renderer/boot.tsx'));
      if (!boot) throw new Error('preload-boot: no chunk for renderer/boot.tsx');
      const entries = new Set(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const files: string[] = [];
      const visit = (fileName: string) => {
        if (files.includes(fileName) || entries.has(fileName)) return;
        files.push(fileName);
        const chunk = bundle[fileName];
        if (chunk?.type === 'chunk') for (const dep of chunk.imports) visit(dep);
      };
      visit(boot.fileName);
      const tags = files
        .filter((file) => !html.includes(`./${file}"`))
        .map(
          (file): HtmlTagDescriptor => ({
            tag: 'link',
            // Fetched, not compiled: a modulepreload would compile the bundle on the main thread as
            // soon as it arrives, ahead of the first script. `crossorigin`: the mode of a module fetch.
            attrs: { rel: 'preload', as: 'script', crossorigin: true, href: `./${file}` },
            injectTo: 'head',
          }),
        );
      // `async`: the first script runs as soon as it is here, without waiting for the stylesheet.
      const first = /<script type="module" crossorigin src=/g;
      if ((html.match(first) ?? []).length !== 1) throw new Error('preload-boot: not one module script');
      return { html: html.replace(first, '<script type="module" async crossorigin src='), tags };
    },
  },
};

/**
 * The modules of the bundle: what renderer/boot.tsx imports statically, directly or not, less what the
 * first script (renderer/main.tsx) imports. Found on the module graph once it is built; the views that
 * Shell.tsx imports dynamically, and what only they use, stay out.
 */
const bootModules = new Set<string>();

export const bundleGraph: Plugin = {
  name: 'bundle-graph',
  apply: 'build',
  buildEnd() {
    bootModules.clear();
    const ids = [...this.getModuleIds()];
    const closure = (file: string) => {
      const root = ids.find((id) => id.replace(/\\/g, '/').endsWith(file));
      const seen = new Set<string>();
      const visit = (id: string) => {
        if (seen.has(id)) return;
        seen.add(id);
        for (const dep of this.getModuleInfo(id)?.importedIds ?? []) visit(dep);
      };
      if (root) visit(root);
      return seen;
    };
    const first = closure('/renderer/main.tsx');
    for (const id of closure('/renderer/boot.tsx')) if (!first.has(id)) bootModules.add(id);
  },
};

/**
 * One chunk for the bundle (React, the store, the apps view and what they import), one per view loaded
 * on demand (and what they share); without it, every module shared by the bundle and a view becomes a
 * small chunk of its own.
 */
export const chunks = {
  // A module of the first script that the bundle imports too stays the first script's.
  includeDependenciesRecursively: false,
  groups: [{ name: 'boot', test: (id: string) => bootModules.has(id) }],
};

/** The client's plugins that read or shape its own bundle: not the server entry's build. */
const clientOnly = (plugin: Plugin): Plugin => ({
  ...plugin,
  applyToEnvironment: (environment) => environment.name === 'client',
});

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), cspInBuildOnly, clientOnly(bundleGraph), clientOnly(preloadBoot)],
  // `vite build` builds both environments: the page (client) and the first screen's server render.
  builder: {},
  environments: {
    /**
     * renderer/ssr.tsx to out/renderer-ssr/ssr.js: the first screen rendered by the headless server
     * for a signed-in browser (issue 26), from the same components. Self-contained (React DOM's
     * server renderer, i18next and the catalogues bundled in): main/ imports this one file, never
     * renderer/ source.
     */
    ssr: {
      resolve: { noExternal: true },
      // process.env.NODE_ENV written in at build time: React's production server renderer only.
      keepProcessEnv: false,
      build: {
        outDir: '../out/renderer-ssr',
        emptyOutDir: true,
        target: 'node24',
        sourcemap: true,
        ssr: 'ssr.tsx',
        copyPublicDir: false,
        rolldownOptions: { output: { entryFileNames: 'ssr.js', codeSplitting: false } },
      },
    },
  },
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    // No inline script or style in index.html: the CSP allows 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rolldownOptions: { output: { codeSplitting: chunks } },
  },
  // `npm run dev:web`: the dashboard with hot reload, its /api served by a running `npm run serve`
  // (default port); open http://localhost:5173/#token=<the server's token>.
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:7410' } },
});
