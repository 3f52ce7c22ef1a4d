// ESLint runs only the type-aware promise rules that biome cannot check (biome's nursery
// noFloatingPromises infers types itself, misses promises that come through generics and
// interfaces, and accepts `void promise`). Everything else is biome's. No inline disabling and no
// allowlist: a finding is fixed where it is.
import tseslint from 'typescript-eslint';

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
