import type { TestServer } from './server.js';
import type { TestUser } from './users.js';

export interface TestWorkspace {
  id: string;
  slug: string;
}

/** Creates a workspace through `POST /api/v1/workspaces` as `owner` (the Super Admin of their organization). */
export async function createWorkspace(
  server: Pick<TestServer, 'request'>,
  owner: TestUser,
  slug: string,
): Promise<TestWorkspace> {
  const res = await server.request('POST', '/api/v1/workspaces', {
    token: owner.token,
    body: { name: slug, slug },
  });
  if (res.status !== 201) throw new Error(`create workspace failed: ${res.status} ${res.text}`);
  return { id: res.body.id, slug: res.body.slug };
}

/**
 * Gives `user` a role in a workspace by writing the membership row, as an accepted
 * invitation would. Suites that test invitations go through their API; the suites using
 * this only need a viewer or an editor to exist.
 */
export async function grantRole(
  server: TestServer,
  workspace: TestWorkspace,
  user: TestUser,
  role: 'viewer' | 'commenter' | 'editor' | 'admin',
): Promise<void> {
  await server.folio.store.db
    .insertInto('workspace_members')
    .values({ workspace_id: workspace.id, user_id: user.id, role, created_at: new Date().toISOString() })
    .execute();
}

/** Creates a page through the content API and answers its body. */
export async function createPage(
  server: Pick<TestServer, 'request'>,
  user: TestUser,
  workspace: TestWorkspace,
  pagePath: string,
  page: { title: string; body?: string; description?: string; tags?: string[]; publish?: boolean },
) {
  const res = await server.request('POST', `/api/v1/content/${workspace.slug}/${pagePath}`, {
    token: user.token,
    body: page,
  });
  if (res.status !== 201) throw new Error(`create page ${pagePath} failed: ${res.status} ${res.text}`);
  return res.body;
}
