import { AppError } from '../../errors.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import { findUserById, updateSignInFailures } from '../../store/repositories/users.js';

/** Consecutive failed sign-ins (wrong password, refused passkey) that lock an account. */
export const LOCKOUT_FAILURES = 5;
/** How long a locked account stays locked. */
export const LOCKOUT_MS = 15 * 60 * 1000;

/** Answers 429 with Retry-After while the account is locked, whatever the way in. */
export function refuseWhileLocked(user: { locked_until: string | null }, now: Date): void {
  if (user.locked_until && user.locked_until > now.toISOString()) {
    throw new AppError('RATE_LIMITED', 'Too many failed sign-in attempts; the account is locked', {
      retryAfter: (Date.parse(user.locked_until) - now.getTime()) / 1000,
    });
  }
}

/** Counts one failed sign-in; the LOCKOUT_FAILURES-th locks the account and starts over. */
export async function countFailedSignIn(db: Queryable, userId: string, now: Date): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) return;
  const failures = user.failed_logins + 1;
  const locked = failures >= LOCKOUT_FAILURES;
  await updateSignInFailures(db, userId, {
    failed_logins: locked ? 0 : failures,
    locked_until: locked ? new Date(now.getTime() + LOCKOUT_MS).toISOString() : null,
  });
}

/** A successful sign-in clears the count of failures. */
export async function clearFailedSignIns(db: Queryable, userId: string): Promise<void> {
  await updateSignInFailures(db, userId, { failed_logins: 0, locked_until: null });
}
