/**
 * The dashboard's build: renderer/ to out/renderer (served by the headless server, loaded by the
 * desktop window). Relative asset paths, so the same build works over http:// and file://.
 */
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** `vite dev` injects inline scripts (React refresh): the page's CSP is for the build only. */
export const cspInBuildOnly: Plugin = {
  name: 'csp-in-build-only',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/\s*<meta\s+http-equiv="Content-Security-Policy"[^>]*>/s, ''),
};

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), cspInBuildOnly],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    // No inline script or style in index.html: the CSP allows 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  // `npm run dev:web`: the dashboard with hot reload, its /api served by a running `npm run serve`
  // (default port); open http://localhost:5173/#token=<the server's token>.
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:7410' } },
});
