import { notFound } from '../../errors.js';
import * as personal from '../../store/repositories/personal-data.js';
import type { Queryable } from '../../store/repositories/queryable.js';

const parseJson = (text: string, fallback: unknown): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
};

/**
 * Everything Folio holds about one user, as the JSON documents of a GDPR export (file
 * name -> content): profile, memberships, sessions, API keys, passkeys, linked identities,
 * comments, activity, invitations sent and onboarding. Secrets never leave the database:
 * no password hash, key hash, refresh token, passkey public key or invitation token.
 */
export async function collectPersonalData(db: Queryable, userId: string): Promise<Record<string, unknown>> {
  const user = await personal.findUserProfile(db, userId);
  if (!user) throw notFound('User');

  const orgs = await personal.listOrgMembershipsOfUser(db, userId);
  const workspaces = await personal.listWorkspaceMembershipsOfUser(db, userId);
  const sessions = await personal.listSessionsOfUser(db, userId);
  const apiKeys = await personal.listApiKeysOfUser(db, userId);
  const passkeys = await personal.listPasskeysOfUser(db, userId);
  const identities = await personal.listIdentitiesOfUser(db, userId);
  const comments = await personal.listCommentsByUser(db, userId);
  const activity = await personal.listActivityByUser(db, userId);
  const invitations = await personal.listInvitationsSentByUser(db, userId);
  const onboarding = await personal.findOnboardingOfUser(db, userId);
  return {
    'profile.json': { ...user, is_platform_owner: user.is_platform_owner === 1 },
    'memberships.json': { organizations: orgs, workspaces },
    'sessions.json': sessions,
    'api-keys.json': apiKeys.map((k) => ({ ...k, scopes: parseJson(k.scopes, []) })),
    'passkeys.json': passkeys.map((p) => ({
      ...p,
      backed_up: p.backed_up === 1,
      transports: parseJson(p.transports, []),
    })),
    'identities.json': identities,
    'comments.json': comments.map((c) => ({ ...c, resolved: c.resolved === 1 })),
    'activity.json': activity.map((a) => ({ ...a, details: parseJson(a.details, {}) })),
    'invitations-sent.json': invitations,
    'onboarding.json': onboarding
      ? { ...onboarding, steps: parseJson(onboarding.steps, {}), dismissed: onboarding.dismissed === 1 }
      : null,
  };
}
