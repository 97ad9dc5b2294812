/**
 * Workspaces: creating, listing, updating and deleting workspaces, their settings, the
 * rows and metadata files that describe them, and the starter workspace of a new account.
 */
export { moveMetadataOutOfTrees } from './metadata-migration.js';
export { remoteRulesOf } from './remote-rules.js';
export { createSettings, updateSettingsInput } from './settings.js';
export { createWorkspaceInput, createWorkspaces, listWorkspacesInput } from './workspaces.js';
