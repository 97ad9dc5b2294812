import { z } from 'zod';
import { invalid } from '../../errors.js';
import type { BucketName } from '../../ratelimit/buckets.js';
import type { Store } from '../../store/database.js';
import { deleteApiKeysOfUser } from '../../store/repositories/api-keys.js';
import { insertResetToken, spendResetToken } from '../../store/repositories/auth-tokens.js';
import { findUserByEmail, updateUserPassword } from '../../store/repositories/users.js';
import { normalizeEmail } from './accounts.js';
import type { Clock } from '../../lib/clock.js';
import type { Outbox } from '../operations/mail.js';
import { checkPasswordPolicy, type PasswordHasher } from './passwords.js';
import { randomToken, sha256Hex } from '../../lib/secrets.js';
import type { Sessions } from './sessions.js';

/** A reset token works once, within one hour. */
export const RESET_TOKEN_MS = 3_600_000;

export const forgotPasswordInput = z.object({ email: z.string().trim().max(320) });
export const resetPasswordInput = z.object({
  token: z.string().min(1).max(200),
  new_password: z.string(),
});

export interface PasswordResetDeps {
  store: Store;
  clock: Clock;
  outbox: Outbox;
  passwords: PasswordHasher;
  sessions: Sessions;
  publicUrl: string;
  /** Spends one unit of a rate-limit bucket; false once it is exhausted. */
  quota: (bucket: BucketName, key: string) => Promise<boolean>;
}

/** One-time reset links, stored hashed, mailed through the outbox or printed by the CLI. */
export function createPasswordReset(deps: PasswordResetDeps) {
  const db = deps.store.db;

  async function issueLink(userId: string): Promise<string> {
    const token = randomToken(32);
    const now = deps.clock.now();
    await insertResetToken(db, {
      token_hash: sha256Hex(token),
      user_id: userId,
      expires_at: new Date(now.getTime() + RESET_TOKEN_MS).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    });
    return `${deps.publicUrl}/reset-password?token=${token}`;
  }

  const findUser = (email: string) => findUserByEmail(db, normalizeEmail(email));

  return {
    /**
     * Mails a link when mail is configured, the address is known and the caller's
     * limits allow it. The caller always answers 200, so nothing here reveals whether
     * the address exists, and a spent limit silently sends nothing. `rateKeyOf` names
     * the caller's key in a bucket (per IP, or per organization when signed in).
     */
    async forgot(email: string, rateKeyOf: (bucket: BucketName) => string): Promise<void> {
      // Counted apart from reset-password's 429 bucket: the two limits are separate promises.
      const allowed =
        (await deps.quota('auth', rateKeyOf('auth'))) &&
        (await deps.quota('passwordReset', `forgot:${rateKeyOf('passwordReset')}`));
      if (!deps.outbox.enabled || !allowed) return;
      const user = await findUser(email);
      if (!user) return;
      const link = await issueLink(user.id);
      await deps.outbox.enqueue({
        to: user.email,
        subject: 'Reset your Folio password',
        text: [
          `Hello ${user.name},`,
          '',
          'Someone asked to reset the password of your Folio account. To choose a new one, open:',
          '',
          link,
          '',
          'The link works once and expires in one hour. If you did not ask for it, ignore this mail.',
          '',
          'Choosing a new password signs you out on every device and revokes every API key of',
          'your account (scripts, CI and MCP clients); create new keys once you are back in.',
        ].join('\n'),
      });
    },

    /** For `folio reset-password`: the link for a known email, or null. */
    async linkFor(email: string): Promise<string | null> {
      const user = await findUser(email);
      return user ? issueLink(user.id) : null;
    },

    /**
     * Spends the token, sets the password and revokes every session and every
     * API key of the user: a reset is how an account is taken back, and a key
     * an intruder made must not outlive it.
     */
    async reset(input: z.infer<typeof resetPasswordInput>): Promise<void> {
      checkPasswordPolicy(input.new_password, 'new_password');
      const now = deps.clock.now().toISOString();
      const hash = sha256Hex(input.token);
      const spent = await spendResetToken(db, hash, now);
      if (!spent) throw invalid('token', 'This reset link is invalid, used or expired');
      const passwordHash = await deps.passwords.hash(input.new_password);
      await db.transaction().execute(async (trx) => {
        await updateUserPassword(trx, spent.user_id, passwordHash, now);
        await deleteApiKeysOfUser(trx, spent.user_id);
      });
      await deps.sessions.revokeAll(spent.user_id);
    },
  };
}
