// ESLint (flat config): typescript-eslint, the rules of hooks, and the import boundaries of src/.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Folders of src/ that every feature may use; they import only each other, never a feature. */
const SHARED = [
  'api',
  'billing',
  'browser',
  'config',
  'display',
  'errors',
  'forms',
  'i18n',
  'routing',
  'session',
  'store',
  'styles',
  'test',
  'ui',
];

export default tseslint.config(
  { ignores: ['dist', 'coverage', 'playwright-report', 'test-results', 'src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-duplicate-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // An effect that runs once per visit (or per key) lists only what decides when it runs and
      // says why on an eslint-disable-next-line comment above its dependency array.
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // The import boundaries: a feature (src/features/<name>/) never imports another feature;
    // what features share lives in the shared folders, which never import a feature. The app
    // shell (src/app, src/layout) puts features together; src/main.tsx only mounts src/app.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/include': ['src/**/*'],
      'boundaries/elements': [
        { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
        { type: 'shell', pattern: 'src/(app|layout)' },
        // The back office (admin.html): its own app, on the shared folders only.
        { type: 'admin', pattern: 'src/admin' },
        { type: 'shared', pattern: `src/(${SHARED.join('|')})`, capture: ['folder'] },
      ],
      'boundaries/files': [{ category: 'test', pattern: '**/*.test.{ts,tsx}' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            '{{ from.element.type }} {{ from.element.captured.feature }}{{ from.element.captured.folder }} may not import {{ to.element.type }} {{ to.element.captured.feature }}{{ to.element.captured.folder }} (web/README.md, "Import boundaries")',
          policies: [
            { from: { element: { type: 'shared' } }, allow: { to: { element: { type: 'shared' } } } },
            {
              from: { element: { type: 'feature' } },
              allow: {
                to: [
                  { element: { type: 'shared' } },
                  { element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } } },
                ],
              },
            },
            { from: { element: { type: 'admin' } }, allow: { to: { element: { types: { anyOf: ['admin', 'shared'] } } } } },
            // Marketing's preview draws banners with the store's own component (src/admin/marketing/BannerPreview.tsx).
            { from: { element: { type: 'admin' } }, allow: { to: { element: { type: 'feature', captured: { feature: 'banners' } } } } },
            {
              from: { element: { type: 'shell' } },
              allow: { to: { element: { types: { anyOf: ['shell', 'feature', 'shared'] } } } },
            },
            // A page test may render its page through the app's route table.
            { from: { file: { categories: 'test' } }, allow: { to: { element: { type: 'shell' } } } },
          ],
        },
      ],
    },
  },
  {
    // zod comes configured from src/forms/zod.ts (no eval, as the content security policy wants).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/forms/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: "Import { z } from src/forms/zod.ts: it turns off zod's eval probe." }] },
      ],
    },
  },
  {
    files: ['*.{js,ts}', 'scripts/**/*.{js,mjs}', 'e2e/**/*.{ts,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
