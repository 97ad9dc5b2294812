import crypto from 'node:crypto';
import { ulid } from 'ulid';
import { z } from 'zod';
import { API_KEY_SCOPES, type Actor, type ApiKeyScope } from '../../domain/actor.js';
import { requireScope } from '../../domain/policy.js';
import { AppError, forbidden, invalid, notFound } from '../../errors.js';
import type { Store } from '../../store/database.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken } from '../../lib/secrets.js';
import * as apiKeysTable from '../../store/repositories/api-keys.js';
import { findOrgByHandle, findOrgById, findOrgRole } from '../../store/repositories/orgs.js';
import { isMemberOfAnyWorkspaceOf } from '../../store/repositories/workspace-members.js';

/** The API's exact prefix of every API key. */
export const API_KEY_PREFIX = 'svc_live_';
const DEFAULT_SCOPES: ApiKeyScope[] = ['read', 'write', 'delete'];

export const createApiKeyInput = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(5).optional(),
  expires_at: z.number().int().positive().nullable().optional(),
  /** Handle of the organization whose workspaces the key acts in; the caller's own by default. */
  org: z.string().trim().min(1).max(100).optional(),
});

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** Handle of the organization whose workspaces the key acts in. */
  org: string;
  prefix: string;
  scopes: ApiKeyScope[];
  expires_at: number | null;
  last_used_at: string | null;
  created_at: string;
}

/**
 * API keys: the full key is shown once; only an HMAC-SHA256 of it with the
 * instance's pepper is stored, so neither a database leak nor a log can
 * reveal a usable key.
 */
export function createApiKeys(store: Store, clock: Clock, pepper: () => Promise<string>) {
  const db = store.db;
  const digest = async (key: string) =>
    crypto
      .createHmac('sha256', await pepper())
      .update(key)
      .digest('hex');

  async function newKey() {
    const key = API_KEY_PREFIX + randomToken(32);
    return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 6), hash: await digest(key) };
  }

  const present = (row: {
    id: string;
    name: string;
    org_handle: string;
    prefix: string;
    scopes: string;
    expires_at: number | string | null;
    last_used_at: string | null;
    created_at: string;
  }): ApiKeyRecord => ({
    id: row.id,
    name: row.name,
    org: row.org_handle,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes) as ApiKeyScope[],
    expires_at: row.expires_at === null ? null : Number(row.expires_at),
    last_used_at: row.last_used_at,
    created_at: row.created_at,
  });

  async function own(actor: Actor, id: string) {
    const row = await apiKeysTable.findApiKeyOfUser(db, id, actor.userId);
    if (!row) throw notFound('API key');
    return row;
  }

  /**
   * The organization a new key acts in: the caller's own unless `handle` names
   * another where the user is a member (of the organization or of one of its
   * workspaces). Roles are not copied into the key: each request is checked
   * against the user's role there, so the key never exceeds it. A key creating
   * a key stays inside its own organization.
   */
  async function keyOrg(actor: Actor, handle: string | undefined): Promise<{ id: string; handle: string }> {
    const found =
      handle === undefined ? await findOrgById(db, actor.orgId) : await findOrgByHandle(db, handle);
    const org = found && { id: found.id, handle: found.handle };
    if (org && org.id === actor.orgId) return org;
    if (actor.via === 'api_key') throw forbidden('An API key can only create keys for its own organization');
    const member =
      org &&
      ((await findOrgRole(db, org.id, actor.userId)) !== undefined ||
        (await isMemberOfAnyWorkspaceOf(db, org.id, actor.userId)));
    // One answer for unknown handles and foreign ones, so handles cannot be probed.
    if (!org || !member) throw invalid('org', 'You are not a member of an organization with this handle');
    return org;
  }

  return {
    async create(actor: Actor, input: z.infer<typeof createApiKeyInput>) {
      requireScope(actor, 'write');
      const now = clock.now();
      if (input.expires_at && input.expires_at * 1000 <= now.getTime()) {
        throw new AppError('VALIDATION_ERROR', 'expires_at must be in the future', {
          details: { field: 'expires_at' },
        });
      }
      const org = await keyOrg(actor, input.org);
      const { key, prefix, hash } = await newKey();
      const row = {
        id: ulid(),
        user_id: actor.userId,
        org_id: org.id,
        name: input.name,
        prefix,
        key_hash: hash,
        scopes: JSON.stringify([...new Set(input.scopes ?? DEFAULT_SCOPES)]),
        expires_at: input.expires_at ?? null,
        last_used_at: null,
        created_at: now.toISOString(),
      };
      await apiKeysTable.insertApiKey(db, row);
      return { ...present({ ...row, org_handle: org.handle }), key };
    },

    async list(actor: Actor): Promise<ApiKeyRecord[]> {
      requireScope(actor, 'read');
      const rows = await apiKeysTable.listApiKeysOfUser(db, actor.userId);
      return rows.map(present);
    },

    /** Replaces the key's secret; the old value stops working at once. */
    async rotate(actor: Actor, id: string) {
      requireScope(actor, 'write');
      const row = await own(actor, id);
      const { key, prefix, hash } = await newKey();
      await apiKeysTable.updateApiKeySecret(db, row.id, { prefix, key_hash: hash });
      return { ...present({ ...row, prefix }), key };
    },

    async remove(actor: Actor, id: string): Promise<void> {
      requireScope(actor, 'delete');
      const row = await own(actor, id);
      await apiKeysTable.deleteApiKey(db, row.id);
    },

    /** The actor a presented key stands for, or null when it is unknown or expired. */
    async resolve(key: string): Promise<Actor | null> {
      if (!key.startsWith(API_KEY_PREFIX)) return null;
      const hash = await digest(key);
      const row = await apiKeysTable.findApiKeyByHash(db, hash);
      if (!row || !crypto.timingSafeEqual(Buffer.from(row.key_hash), Buffer.from(hash))) return null;
      const now = clock.now();
      if (row.expires_at !== null && Number(row.expires_at) * 1000 <= now.getTime()) return null;
      // Last use is informative; writing it at most once a minute keeps reads cheap.
      if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > 60_000) {
        await apiKeysTable.touchApiKey(db, row.id, now.toISOString());
      }
      return {
        userId: row.user_id,
        orgId: row.org_id,
        scopes: JSON.parse(row.scopes) as ApiKeyScope[],
        via: 'api_key',
        isPlatformOwner: row.is_platform_owner === 1,
        displayName: row.owner_name,
        email: row.owner_email,
      };
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
