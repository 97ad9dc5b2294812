import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import folio from './eslint-rules/no-import-cycle.js';

const SQL_IN_STORE_ONLY = 'SQL is written in src/store/ only: add a repository function.';
/** Kysely's query builders; a call to one outside src/store/ is a query that belongs in a repository. */
const QUERY_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom'];

/**
 * TEMPORARY: files whose queries are still being moved into src/store/ on other branches. Remove each
 * entry once its file's SQL lives in a repository; the list must end up empty and then go.
 */
export const SQL_NOT_YET_IN_STORE = [
  // identity, access and memberships
  'src/services/access.ts',
  'src/services/org-super-admin.ts',
  'src/services/identity/accounts.ts',
  'src/services/identity/api-keys.ts',
  'src/services/identity/auth.ts',
  'src/services/identity/authenticator.ts',
  'src/services/identity/external-sign-in.ts',
  'src/services/identity/lockout.ts',
  'src/services/identity/onboarding.ts',
  'src/services/identity/passkeys.ts',
  'src/services/identity/password-reset.ts',
  'src/services/identity/registration.ts',
  'src/services/identity/sessions.ts',
  'src/services/identity/sign-in-methods.ts',
  'src/services/identity/ws-tickets.ts',
  'src/services/identity/ws-tokens.ts',
  'src/services/collab/invitations.ts',
  'src/services/collab/members.ts',
  'src/services/collab/people.ts',
  'src/services/collab/share-links.ts',
  // cloud, billing, publishing and webhooks
  'src/services/billing/admin-billing.ts',
  'src/services/billing/billing.ts',
  'src/services/billing/plan-directory.ts',
  'src/services/billing/stripe-events.ts',
  'src/services/cloud/account-deletion.ts',
  'src/services/cloud/admin-audit.ts',
  'src/services/cloud/admin-orgs.ts',
  'src/services/cloud/admin-platform.ts',
  'src/services/cloud/admin-users.ts',
  'src/services/cloud/gdpr.ts',
  'src/services/cloud/impersonation.ts',
  'src/services/cloud/org-export.ts',
  'src/services/cloud/personal-data.ts',
  'src/services/publishing/analytics.ts',
  'src/services/publishing/custom-domains.ts',
  'src/services/publishing/site/authors.ts',
  'src/services/publishing/site/context.ts',
  'src/services/publishing/version-files.ts',
  'src/services/publishing/versions.ts',
  'src/services/webhooks/delivery.ts',
  'src/services/webhooks/webhooks.ts',
  // the page write pipeline and change requests
  'src/services/pages/pages.ts',
  'src/services/change-requests/change-requests.ts',
  'src/services/change-requests/context.ts',
  'src/services/sync/commits.ts',
];

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
    // No import cycles in the server code, type-only ones included: a cycle makes module
    // initialisation order fragile and usually means two files share what belongs in a third.
    files: ['src/**/*.ts'],
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
    ignores: ['src/store/**', '**/*.test.ts', ...SQL_NOT_YET_IN_STORE],
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
    // The published site's palette: browser code served as written (src/render/palette.ts).
    files: ['src/render/site-assets/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
