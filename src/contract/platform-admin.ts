import { z } from 'zod';
import { readinessCheck } from './health.js';
import { listOf, record, timestamp } from './shape.js';

/** An organization as the platform owner lists them. */
export const orgSummary = record({
  id: z.string(),
  handle: z.string(),
  name: z.string(),
  plan: z.string(),
  subscription_override: record({
    plan: z.string(),
    expires_at: timestamp.nullable(),
    note: z.string(),
  }).nullable(),
  members: z.number().int(),
  workspaces: z.number().int(),
  created_at: timestamp,
});
export type OrgSummary = z.infer<typeof orgSummary>;

export const orgList = listOf(orgSummary);

/** One organization in detail: its limits, workspaces and Super Admins. */
export const orgDetails = orgSummary.extend({
  rate_limits: z.record(z.string(), z.number()).describe('Bucket name -> its own limit'),
  workspace_list: z.array(
    record({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      created_at: timestamp,
      page_count: z.number().int(),
    }),
  ),
  superadmins: z.array(record({ id: z.string(), name: z.string(), email: z.string() })),
});
export type OrgDetails = z.infer<typeof orgDetails>;

/** A user as the platform owner lists them. */
export const adminUser = record({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  handle: z.string(),
  is_platform_owner: z.boolean(),
  created_at: timestamp,
  deleted_at: timestamp.nullable(),
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUserList = listOf(adminUser);

/** One user in detail: organizations, workspace count and live sessions. */
export const adminUserDetails = adminUser.extend({
  organizations: z.array(
    record({ id: z.string(), handle: z.string(), name: z.string(), plan: z.string(), role: z.string() }),
  ),
  workspace_memberships: z.number().int(),
  sessions: z.array(
    record({
      id: z.string(),
      device: z.string().nullable(),
      ip: z.string().nullable(),
      created_at: timestamp,
      last_active_at: timestamp,
      impersonated_by: z.string().nullish().describe('The platform owner who opened it as this user'),
    }),
  ),
});
export type AdminUserDetails = z.infer<typeof adminUserDetails>;

/** `POST /api/v1/admin/users/:id/impersonate`: a session as that user. */
export const impersonationTokens = record({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  expires_at: timestamp,
});
export type ImpersonationTokens = z.infer<typeof impersonationTokens>;

/** One entry of the platform owner's audit log. */
export const auditEntry = record({
  id: z.string(),
  action: z.string(),
  actor: record({ id: z.string(), name: z.string().nullable() }),
  target: record({ type: z.string(), id: z.string() }),
  details: z.record(z.string(), z.unknown()),
  created_at: timestamp,
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditLog = listOf(auditEntry);

/** Totals of the instance. */
export const platformTotals = record({
  users: z.number().int(),
  organizations: z.number().int(),
  workspaces: z.number().int(),
  pages: z.number().int(),
  organizations_by_plan: z.record(z.string(), z.number().int()),
});
export type PlatformTotals = z.infer<typeof platformTotals>;

/** Readiness checks with the totals and the process's figures. */
export const platformHealth = record({
  ready: z.boolean(),
  checks: z.record(z.string(), readinessCheck),
  totals: platformTotals,
  process: record({
    uptime_seconds: z.number().int(),
    rss_bytes: z.number().int(),
    heap_used_bytes: z.number().int(),
  }),
});
export type PlatformHealth = z.infer<typeof platformHealth>;

/** Sign-ups and active organizations per UTC day, oldest first. */
export const platformGrowth = record({
  days: z.array(record({ day: z.string(), signups: z.number().int(), active_orgs: z.number().int() })),
});
export type PlatformGrowth = z.infer<typeof platformGrowth>;
