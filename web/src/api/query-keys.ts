/**
 * Every query key of the app, one factory per feature, so a screen that invalidates what
 * another screen loaded names the same key. A key starts with its feature's name; a shorter
 * key (`treeKeys.all(slug)`, `changeRequestKeys.all(id)`) matches every longer one below it
 * when invalidating.
 */

export const accountKeys = {
  me: () => ['me'] as const,
  providers: () => ['providers'] as const,
  passkeys: () => ['passkeys'] as const,
  identities: () => ['identities'] as const,
  sessions: () => ['sessions'] as const,
  apiKeys: () => ['api-keys'] as const,
  onboarding: () => ['onboarding'] as const,
};

export const workspaceKeys = {
  list: () => ['workspaces'] as const,
  settings: (workspaceId: string) => ['settings', workspaceId] as const,
  members: (workspaceId: string) => ['members', workspaceId] as const,
  people: (slug: string) => ['people', slug] as const,
  customDomain: (workspaceId: string) => ['custom-domain', workspaceId] as const,
  themePreview: (slug: string, theme: string) => ['theme-preview', slug, theme] as const,
  analytics: (workspaceId: string, name: string, days: number, query: string) =>
    ['analytics', workspaceId, name, days, query] as const,
};

/** A workspace's page tree, addressed by the workspace's slug as the content routes are. */
export const treeKeys = {
  all: (slug: string) => ['tree', slug] as const,
};

export const pageKeys = {
  byPath: (slug: string, path: string) => ['page', slug, path] as const,
  activity: (workspaceId: string, path: string) => ['page-activity', workspaceId, path] as const,
  templates: () => ['templates'] as const,
  search: (workspaceId: string, query: string) => ['search', workspaceId, query] as const,
};

export const historyKeys = {
  ofPage: (workspaceId: string, path: string) => ['page-history', workspaceId, path] as const,
  diff: (workspaceId: string, path: string, commit: string) =>
    ['page-diff', workspaceId, path, commit] as const,
};

export const commentKeys = {
  threads: (slug: string, path: string) => ['comments', slug, path] as const,
};

export const changeRequestKeys = {
  all: (workspaceId: string) => ['change-requests', workspaceId] as const,
  list: (workspaceId: string, status: string) => ['change-requests', workspaceId, status] as const,
  detail: (workspaceId: string, number: number) =>
    ['change-requests', workspaceId, 'detail', number] as const,
  page: (workspaceId: string, number: number, path: string) =>
    ['change-request-page', workspaceId, number, path] as const,
};

export const gitKeys = {
  workspace: (workspaceId: string) => ['git-workspace', workspaceId] as const,
  conflicts: (workspaceId: string) => ['git-conflicts', workspaceId] as const,
  conflict: (conflictId: string) => ['conflict', conflictId] as const,
  deployKey: (workspaceId: string) => ['deploy-key', workspaceId] as const,
};

export const adminKeys = {
  navigation: (workspaceId: string) => ['navigation', workspaceId] as const,
  quality: (workspaceId: string) => ['quality', workspaceId] as const,
  activity: (workspaceId: string, action: string, actor: string) =>
    ['activity', workspaceId, action, actor] as const,
  importJob: (workspaceId: string, jobId: string | null) => ['import', workspaceId, jobId] as const,
};

export const aiKeys = {
  status: () => ['ai-status'] as const,
};

export const billingKeys = {
  plans: () => ['billing', 'plans'] as const,
  limits: () => ['billing', 'limits'] as const,
  subscription: () => ['billing', 'subscription'] as const,
};

export const platformKeys = {
  impersonation: () => ['impersonation'] as const,
  health: () => ['admin-health'] as const,
  growth: (days: number) => ['admin-growth', days] as const,
  users: () => ['admin-users'] as const,
  orgs: () => ['admin-orgs'] as const,
  domains: () => ['admin-domains'] as const,
  audit: () => ['admin-audit'] as const,
};
