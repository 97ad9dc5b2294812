import { z } from 'zod';
import { record, timestamp } from './shape.js';

/** A workspace's sync status: what its git sync is doing, or why it stopped. */
export const syncStatus = z.enum(['idle', 'syncing', 'pushing', 'error', 'conflict']);
export type SyncStatus = z.infer<typeof syncStatus>;

/** An open conflict between an edit in Folio and one on the remote. */
export const conflictRecord = record({
  id: z.string(),
  path: z.string(),
  page_id: z.string(),
  ours_hash: z.string().nullable().describe("Folio's version; null where it deleted the file"),
  theirs_hash: z.string().nullable().describe("The remote's version; null where it deleted the file"),
  timestamp: z.string().describe('Names the conflict artefacts under /api/v1/conflicts'),
});
export type ConflictRecord = z.infer<typeof conflictRecord>;

/** `POST …/sync`: what the pull brought, and the conflicts it found. */
export const syncResult = record({
  status: z.enum(['completed', 'conflict']),
  changes: record({ added: z.number().int(), updated: z.number().int(), deleted: z.number().int() }),
  conflicts: z.array(conflictRecord).optional(),
});
export type SyncResult = z.infer<typeof syncResult>;

/** `GET …/conflicts`: the open conflicts and the status they leave the workspace in. */
export const conflictList = record({
  workspace_id: z.string(),
  sync_status: syncStatus,
  conflicts: z.array(conflictRecord),
});
export type ConflictList = z.infer<typeof conflictList>;

/** One conflict with both versions' text (null where that side deleted the file). */
export const conflictDetail = conflictRecord.extend({
  workspace_id: z.string(),
  resolved_at: timestamp.nullable(),
  resolution: z.string().nullable(),
  ours: z.string().nullable(),
  theirs: z.string().nullable(),
});
export type ConflictDetail = z.infer<typeof conflictDetail>;

/** `POST …/sync/conflicts/:conflict_id/resolve`. */
export const conflictResolved = record({
  message: z.string(),
  page_id: z.string(),
  path: z.string(),
  resolution: z.enum(['ours', 'theirs', 'content']),
  sync_status: syncStatus,
});
export type ConflictResolved = z.infer<typeof conflictResolved>;

/** `POST /api/v1/conflicts/:page_id/:timestamp/resolve`: a conflict settled by hand. */
export const conflictDismissed = record({ message: z.string(), page_id: z.string() });

/** `PUT …/git-credentials`: the password is write-only and never shown again. */
export const gitCredentials = record({
  workspace_id: z.string(),
  username: z.string(),
  has_password: z.boolean(),
  updated_at: timestamp,
});
export type GitCredentials = z.infer<typeof gitCredentials>;

/** `GET …/deploy-key`: the public half of the workspace's SSH key, to add to the git host. */
export const deployKeyRecord = record({
  workspace_id: z.string(),
  public_key: z.string(),
  fingerprint: z.string(),
});
export type DeployKey = z.infer<typeof deployKeyRecord>;
