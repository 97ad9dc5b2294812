import { z } from 'zod';
import { listOf, record, timestamp } from '../contract/shape.js';

// Response schemas not yet moved to their feature's file in src/contract/.

/** `POST /api/auth/login` (and refresh, claim): the token pair. */
export const tokenPair = record({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int().describe('Seconds until the access token expires'),
});

/** `GET /api/auth/me`. */
export const me = record({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  handle: z.string(),
  role: z.string(),
  platform_owner: z.boolean(),
  org: record({ id: z.string(), handle: z.string(), name: z.string() }).nullable(),
});

/** CONTRACT.md part 3's workspace. */
export const workspaceRecord = record({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  git_remote: z.string().nullable(),
  git_branch: z.string(),
  org_handle: z.string(),
  role: z.string(),
  sync_status: z.string(),
  last_sync_at: timestamp.nullable(),
  public_site: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const workspaceList = listOf(workspaceRecord);

/** `GET /api/v1/workspaces/:id/members`: who is in the workspace, as its members see them. */
export const peopleList = listOf(record({ user_id: z.string(), name: z.string(), handle: z.string() }));
