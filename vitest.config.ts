import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Bounds, not timing figures: a test ends as soon as what it waits for happens. A fresh-clone CI
    // run with other work on both cores (load 25) took 18-35 s for renderer tests that take 1-3 s on
    // a quiet machine, so the bound is far above that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        // The desktop shell's tests run its main process on a fake of `electron` (the binary cannot
        // be had here); electron-store is inlined so that its own `import 'electron'` gets the fake.
        resolve: {
          alias: [
            {
              find: /^electron$/,
              replacement: fileURLToPath(new URL('./main/desktop/testing/fake-electron.ts', import.meta.url)),
            },
          ],
        },
        test: {
          name: 'node',
          include: ['main/**/*.test.ts', 'shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['main/testing/vitest-setup.ts'],
          server: { deps: { inline: ['electron-store'] } },
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'dashboard',
          include: ['renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['renderer/test/setup.ts'],
        },
      },
    ],
  },
});
