// ESLint runs only the type-aware promise rules that biome cannot check (biome's nursery
// noFloatingPromises infers types itself, misses promises that come through generics and
// interfaces, and accepts `void promise`). Everything else is biome's. No inline disabling: a
// finding is fixed where it is; the one exception is the PENDING debt list below, to be emptied.
import tseslint from 'typescript-eslint';

// DEBT (issue 21, left open): the files below still had floating or misused promises when the
// third wave's branches were merged (76 findings: un-awaited store calls in tests, the scheduler's
// and the dashboard's fire-and-forget actions). They are outside the rules until each is fixed
// where it happens; the list only shrinks, and a file leaves it in the commit that fixes it.
const PENDING = [
  'bench/api-economy.ts',
  'bench/engine-tick.ts',
  'bench/team-sweep.ts',
  'main/engine/engine.ts',
  'main/engine/faults.test.ts',
  'main/engine/scheduler.ts',
  'main/service/compose.ts',
  'main/service/reaper-service.ts',
  'main/store/postgres/pg-fencing.test.ts',
  'main/store/retention.test.ts',
  'main/store/retention.ts',
  'main/store/sqlite/open-sqlite.ts',
  'main/store/sqlite/sqlite-history.test.ts',
  'main/store/sqlite/sqlite-store.test.ts',
  'main/testing/live-harness.ts',
  'main/testing/team-engines.ts',
  'main/traffic/session-traffic.ts',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'test-results/**',
      'playwright-report/**',
      '**/*.js',
      // A deliberately insecure Electron app for the security scanner's tests, in no tsconfig.
      'security/fixtures/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: PENDING,
    linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'error' },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      // `void promise` counts as floating: a failure is handled where it happens, or awaited.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false, ignoreIIFE: false }],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
