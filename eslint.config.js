import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import folio from './eslint-rules/no-import-cycle.js';

/** The doors into Folio: they reach the services only through the capabilities' public faces. */
const ADAPTERS = ['src/http/**/*.ts', 'src/mcp/**/*.ts', 'src/ws/**/*.ts', 'src/cli/**/*.ts'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // No import cycles in the server code or the web app, type-only ones included: a cycle makes
    // module initialisation order fragile and usually means two files share what belongs in a third.
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    plugins: { folio },
    rules: { 'folio/no-import-cycle': 'error' },
  },
  {
    files: ADAPTERS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Any file under services/ but its index, access.js, activity.js and <capability>/index.js.
              regex: String.raw`(^|/)services/(?!(index|access|activity)\.js$|[\w-]+/index\.js$)`,
              message:
                'Adapters use the services through services/index.js or a capability’s index.js, never its inner files.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', '@fastify/*', '@modelcontextprotocol/*', 'ws'],
              message: 'Services know no transport: HTTP, MCP and WebSocket stay in the adapters.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The web app reads the server's records as types only: zod and the schemas stay on the server.
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/contract/*', 'zod'],
              allowTypeImports: true,
              message:
                'The web app imports the contract (and zod) with `import type` only, so no schema code ships.',
            },
          ],
        },
      ],
    },
  },
  {
    // The published site's palette: browser code served as written (src/render/palette.ts).
    files: ['src/render/site-assets/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
