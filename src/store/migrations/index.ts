import type { Migration, MigrationProvider } from 'kysely';
import * as core from './0001-core.js';
import * as content from './0002-content.js';
import * as search from './0003-search.js';
import * as collaboration from './0004-collaboration.js';
import * as publishing from './0005-publishing.js';
import * as gitSync from './0006-git-sync.js';
import * as sessionSigningKey from './0007-session-signing-key.js';
import * as identityProviders from './0008-identity-providers.js';
import * as passkeys from './0009-passkeys.js';
import * as webhooks from './0010-webhooks.js';
import * as pageRevisions from './0011-page-revisions.js';
import * as changeRequests from './0012-change-requests.js';
import * as billing from './0013-billing.js';
import * as compatibility from './0014-compatibility.js';
import * as cloudAdministration from './0016-cloud-administration.js';

/**
 * Every migration, in order. Forward-only: a released migration is never
 * edited; a change is a new file added to this list.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-core': core,
  '0002-content': content,
  '0003-search': search,
  '0004-collaboration': collaboration,
  '0005-publishing': publishing,
  '0006-git-sync': gitSync,
  '0007-session-signing-key': sessionSigningKey,
  '0008-identity-providers': identityProviders,
  '0009-passkeys': passkeys,
  '0010-webhooks': webhooks,
  '0011-page-revisions': pageRevisions,
  '0012-change-requests': changeRequests,
  '0013-billing': billing,
  '0014-compatibility': compatibility,
  '0016-cloud-administration': cloudAdministration,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
