import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import folio from './eslint-rules/no-import-cycle.js';

const SQL_IN_STORE_ONLY = 'SQL is written in src/store/ only: add a repository function.';
/** Kysely's query builders; a call to one outside src/store/ is a query that belongs in a repository. */
const QUERY_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom'];

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
    // One data layer: queries are built in src/store/ (repositories/, search/) and nowhere else, so
    // every query runs in the repository tests on SQLite and PostgreSQL alike. Type-only imports of
    // Kysely's types stay allowed; `sql` is imported from 'kysely' only inside the store. The
    // typescript-eslint twin of no-restricted-imports carries the `sql` ban so it adds to, rather than
    // replaces, the adapters' and services' own no-restricted-imports lists above.
    files: ['src/**/*.ts'],
    ignores: ['src/store/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression > MemberExpression.callee[property.name=/^(${QUERY_BUILDERS.join('|')})$/]`,
          message: SQL_IN_STORE_ONLY,
        },
      ],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'kysely', importNames: ['sql'], message: SQL_IN_STORE_ONLY, allowTypeImports: true },
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
    // CommonJS (bin/package.json), like the bundle it runs.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
