import { requireOrgSuperAdmin } from '../org-super-admin.js';
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requireScope } from '../../domain/policy.js';
import { AppError, invalid, notFound, unauthorized } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
import { findOrgByHandle } from '../../store/repositories/orgs.js';
import { findSessionById } from '../../store/repositories/sessions.js';
import { findUserById } from '../../store/repositories/users.js';
import { countFailedSignIn, refuseWhileLocked } from '../identity/lockout.js';
import type { PasswordHasher } from '../identity/passwords.js';
import { deleteAccountData } from './account-deletion.js';
import { exportOrganization } from './org-export.js';
import { collectPersonalData } from './personal-data.js';
import { type Download, streamArchive } from './zip-archive.js';

export type { Download } from './zip-archive.js';

/** `DELETE /api/v1/users/me`: the password, for an account that has one. */
export const deleteAccountInput = z.object({
  password: z
    .string()
    .max(4096)
    .optional()
    .describe('The account password; not needed by an account without one.'),
});

/** An account without a password confirms its deletion with a session at most this old. */
export const FRESH_SIGN_IN_MS = 5 * 60 * 1000;

const day = (clock: Clock) => clock.now().toISOString().slice(0, 10);

/**
 * The user's GDPR export as a ZIP: one JSON document per kind of data (see
 * personal-data.ts) and a README saying what each holds.
 */
export async function personalDataZip(store: Store, clock: Clock, userId: string): Promise<Download> {
  const documents = await collectPersonalData(store.db, userId);
  const readme =
    'Everything Folio holds about you, one JSON file per kind of data.\n' +
    'Secrets (password and key hashes, tokens, passkey keys) are never exported.\n' +
    'Pages you wrote belong to their workspaces: an organization export holds them.\n';
  const handle = (documents['profile.json'] as { handle: string }).handle;
  const stream = await streamArchive([
    ...Object.entries(documents).map(([name, json]) => ({ name, json })),
    { name: 'README.json', json: { about: readme, exported_at: clock.now().toISOString() } },
  ]);
  return { filename: `folio-${handle}-data-${day(clock)}.zip`, stream };
}

/**
 * The GDPR endpoints of the Cloud edition: a user's own data export, the
 * deletion of their account, and an organization's export for its Super Admins.
 */
export function createGdpr(deps: { store: Store; clock: Clock; passwords: PasswordHasher; dataDir: string }) {
  const { store, clock } = deps;
  const db = store.db;

  /** Proves the caller is the account's holder: its password, or a sign-in of the last five minutes. */
  async function confirmIdentity(actor: Actor, password: string | undefined): Promise<void> {
    const user = await findUserById(db, actor.userId);
    if (!user) throw unauthorized();
    const now = clock.now();
    if (user.password_hash) {
      refuseWhileLocked(user, now);
      if (!password) throw invalid('password', 'Your password is required to delete your account');
      if (!(await deps.passwords.verify(user.password_hash, password))) {
        await countFailedSignIn(db, user.id, now);
        throw invalid('password', 'The password is not right');
      }
      return;
    }
    const signedInAt = actor.sessionId ? (await findSessionById(db, actor.sessionId))?.created_at : undefined;
    if (!signedInAt || now.getTime() - Date.parse(signedInAt) > FRESH_SIGN_IN_MS) {
      throw new AppError('FORBIDDEN', 'Sign in again, then delete your account within five minutes', {
        details: { reason: 'fresh_sign_in_required' },
      });
    }
  }

  return {
    /** `GET /api/v1/users/me/export`: everything Folio holds about the caller (the route limits it to one a day). */
    async exportMyData(actor: Actor): Promise<Download> {
      requireScope(actor, 'read');
      return personalDataZip(store, clock, actor.userId);
    },

    /**
     * `DELETE /api/v1/users/me`: confirms the caller's identity, then removes their
     * personal data and keeps what they wrote with its organization (account-deletion.ts).
     */
    async deleteMyAccount(actor: Actor, input: z.infer<typeof deleteAccountInput>): Promise<void> {
      requireScope(actor, 'delete');
      await confirmIdentity(actor, input.password);
      await deleteAccountData(db, actor.userId, clock.now().toISOString());
    },

    /**
     * `GET /api/v1/orgs/:handle/export`: the organization's Super Admins get every
     * workspace's files with its members, roles and settings. Someone who works in the
     * organization without being its Super Admin gets 403; anyone else 404.
     */
    async exportOrg(actor: Actor, handle: string): Promise<Download> {
      requireScope(actor, 'read');
      const orgId = (await findOrgByHandle(db, handle))?.id;
      if (!orgId) throw notFound('Organization');
      if (actor.via !== 'system') {
        await requireOrgSuperAdmin(db, actor, orgId, "Only the organization's Super Admins can export it");
      }
      return exportOrganization({ store, clock, dataDir: deps.dataDir }, orgId);
    },
  };
}

export type GdprService = ReturnType<typeof createGdpr>;
