import type { Kysely } from 'kysely';
import { notFound } from '../../errors.js';
import type { Database } from '../../store/schema.js';

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
export async function collectPersonalData(
  db: Kysely<Database>,
  userId: string,
): Promise<Record<string, unknown>> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'handle', 'is_platform_owner', 'created_at', 'updated_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw notFound('User');

  const orgs = await db
    .selectFrom('org_members')
    .innerJoin('orgs', 'orgs.id', 'org_members.org_id')
    .select(['orgs.handle', 'orgs.name', 'org_members.role', 'org_members.created_at'])
    .where('org_members.user_id', '=', userId)
    .orderBy('org_members.created_at')
    .execute();
  const workspaces = await db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .innerJoin('orgs', 'orgs.id', 'workspaces.org_id')
    .select([
      'workspaces.slug',
      'workspaces.name',
      'orgs.handle as org',
      'workspace_members.role',
      'workspace_members.created_at',
    ])
    .where('workspace_members.user_id', '=', userId)
    .orderBy('workspace_members.created_at')
    .execute();
  const sessions = await db
    .selectFrom('sessions')
    .select(['id', 'device', 'ip', 'created_at', 'last_active_at', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const apiKeys = await db
    .selectFrom('api_keys')
    .innerJoin('orgs', 'orgs.id', 'api_keys.org_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.prefix',
      'api_keys.scopes',
      'orgs.handle as org',
      'api_keys.expires_at',
      'api_keys.last_used_at',
      'api_keys.created_at',
    ])
    .where('api_keys.user_id', '=', userId)
    .orderBy('api_keys.created_at')
    .execute();
  const passkeys = await db
    .selectFrom('passkey_credentials')
    .select(['id', 'name', 'device_type', 'backed_up', 'transports', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const identities = await db
    .selectFrom('user_identities')
    .select(['id', 'provider', 'email', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const comments = await db
    .selectFrom('comments')
    .innerJoin('workspaces', 'workspaces.id', 'comments.workspace_id')
    .leftJoin('pages', 'pages.id', 'comments.page_id')
    .select([
      'comments.id',
      'workspaces.slug as workspace',
      'pages.path as page',
      'comments.parent_id',
      'comments.body',
      'comments.resolved',
      'comments.created_at',
      'comments.updated_at',
    ])
    .where('comments.author_id', '=', userId)
    .orderBy('comments.created_at')
    .execute();
  const activity = await db
    .selectFrom('activity')
    .innerJoin('workspaces', 'workspaces.id', 'activity.workspace_id')
    .select([
      'activity.id',
      'workspaces.slug as workspace',
      'activity.action',
      'activity.path',
      'activity.details',
      'activity.created_at',
    ])
    .where('activity.actor_id', '=', userId)
    .orderBy('activity.id')
    .execute();
  const invitations = await db
    .selectFrom('invitations')
    .innerJoin('workspaces', 'workspaces.id', 'invitations.workspace_id')
    .select([
      'invitations.id',
      'workspaces.slug as workspace',
      'invitations.email',
      'invitations.role',
      'invitations.created_at',
      'invitations.expires_at',
      'invitations.accepted_at',
      'invitations.revoked_at',
    ])
    .where('invitations.invited_by', '=', userId)
    .orderBy('invitations.created_at')
    .execute();
  const onboarding = await db
    .selectFrom('user_onboarding')
    .select(['steps', 'dismissed', 'updated_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();

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
