// Loaded first: typescript-eslint gets TypeScript 6's JavaScript API (see the file).
import './tools/typescript-js-api/register.cjs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layerRules from './tools/eslint-layers/index.js';

const srcDir = fileURLToPath(new URL('./src', import.meta.url));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'tools/typescript-js-api/node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { nearcare: layerRules },
    rules: {
      'nearcare/layers': ['error', { srcDir }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  { files: ['src/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      // React Compiler readiness rules (the build does not use the compiler). They flag 18 places
      // (a dialog resetting its fields when it opens, the map's latest-callback refs, callbacks
      // that refer to each other, TanStack Virtual) whose rewrite changes when components render;
      // that is a change of its own, after the page components are split. The hook rules stay.
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/refs': 'off',
      'react-hooks/immutability': 'off',
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    files: ['e2e/**', 'build-plugins/**', 'scripts/**', 'tools/**', 'vite.config.ts', 'eslint.config.js'],
    languageOptions: { globals: globals.node },
  },
  // Browser tests are Node scripts whose `page.evaluate` callbacks run in the page.
  { files: ['e2e/**'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
