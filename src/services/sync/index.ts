/**
 * Sync: a workspace's git history and its remote. Auto-commits of web edits, push and
 * pull, webhooks, the remote's settings and credentials, and conflicts and their resolution.
 */
export { conflictDownloadParams, resolveConflictInput } from './conflicts.js';
export { createGitSync } from './git-sync.js';
export { gitCredentialsInput, gitRemoteInput } from './remote.js';
