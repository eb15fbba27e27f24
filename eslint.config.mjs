// ESLint 9 flat config: the rules that matter are errors here, not sentences in a doc.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const typescriptFiles = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];

// Architecture as lint: apps share only libs, the web app only the contracts.
const moduleBoundaries = {
  enforceBuildableLibDependency: false,
  allow: [],
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
    { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
    { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts', 'type:app'] },
    { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:contracts'] },
    { sourceTag: 'type:lib', notDependOnLibsWithTags: ['type:app', 'type:e2e'] },
    { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
    { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared'] },
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:server', 'scope:shared'] },
  ],
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.nx/**', 'coverage/**', '**/*.d.ts'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { '@nx': nx },
    rules: { '@nx/enforce-module-boundaries': ['error', moduleBoundaries] },
  },
  {
    // Whole-system tests boot real apps in-process through their entry points, and read what an app keeps for tools
    // outside it (its `tooling` module); the only place an app's code may be imported.
    files: ['apps/system-tests/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { ...moduleBoundaries, allow: ['^(\\.\\./)+[a-z-]+/src/(main|service|tooling)$'] }],
    },
  },
  {
    // Benchmarks and operator scripts drive apps from outside: through an app's entry points and the `tooling`
    // module it keeps for them, never its other internals.
    files: ['bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { ...moduleBoundaries, allow: ['^\\.\\./apps/[a-z-]+/src/(main|service|worker-main|migrations|tooling)$'] }],
    },
  },
  {
    files: typescriptFiles,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Nest modules and DI tokens are classes with only decorators.
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // A focused or skipped test passes CI while testing less: neither may be committed.
    files: ['**/*.{spec,int-spec,e2e-spec}.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].flatMap((object) =>
          ['only', 'skip', 'todo'].map((property) => ({ object, property, message: 'Commit tests that run: no .only, .skip or .todo.' })),
        ),
      ],
      'no-restricted-globals': [
        'error',
        ...['fit', 'fdescribe', 'xit', 'xdescribe', 'xtest'].map((name) => ({ name, message: 'Commit tests that run: no focused or skipped tests.' })),
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['jest.config.js'],
    languageOptions: { sourceType: 'commonjs' },
  },
  // The scripts the service worker imports (vite.config.ts, workbox.importScripts).
  {
    files: ['apps/web/public/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker } },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
