import { z } from 'zod';
import { ROLES } from '../domain/policy.js';
import { listOf, record, timestamp } from './shape.js';

/** A workspace as its members see it; admins also get the webhook and git details. */
export const workspaceRecord = record({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  git_remote: z.string().nullable(),
  git_branch: z.string(),
  org_handle: z.string(),
  role: z.enum(ROLES).describe("The caller's role in the workspace"),
  sync_status: z.string(),
  last_sync_at: timestamp.nullable(),
  public_site: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
  last_error: z.string().nullable().optional().describe('Admins: why the last sync failed'),
  git_username: z.string().nullable().optional().describe('Admins: the stored HTTPS user name'),
  webhook_secret: z.string().optional().describe('Admins: the secret of the inbound git webhook'),
  webhook_url: z.string().optional().describe('Admins: where a git host sends its push events'),
  git_host_key: record({ host: z.string(), type: z.string(), fingerprint: z.string() })
    .nullable()
    .optional()
    .describe("Admins: the SSH host key trusted for the remote's host"),
});
export type Workspace = z.infer<typeof workspaceRecord>;

export const workspaceList = listOf(workspaceRecord);
