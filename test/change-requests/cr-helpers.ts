import { expect } from 'vitest';
import type { SyncEnv } from '../sync/sync-helpers.js';
import type { TestUser } from '../helpers/users.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

/** Requests as `user` against the environment's server. */
export function caller(env: SyncEnv, user: TestUser) {
  return (method: string, p: string, body?: unknown) =>
    env.server.request(method, p, { token: user.token, body });
}

/** The content URL of a page, inside change request `n` when given. */
export const contentUrl = (slug: string, pagePath: string, n?: number): string =>
  `/api/v1/content/${slug}/${pagePath}${n === undefined ? '' : `?change_request=${n}`}`;

/** The change-request URL of a workspace. */
export const crUrl = (workspaceId: string, rest = ''): string =>
  `/api/v1/workspaces/${workspaceId}/change-requests${rest}`;

/** Opens a change request as `user`; answers its record. */
export async function openRequest(
  env: SyncEnv,
  user: TestUser,
  workspaceId: string,
  title = 'Rework the guide',
) {
  const res = await caller(env, user)('POST', crUrl(workspaceId), { title, description: 'Why it matters' });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Replaces a page's body inside change request `n` (reading its hash there first). */
export async function editInRequest(
  env: SyncEnv,
  user: TestUser,
  slug: string,
  n: number,
  pagePath: string,
  body: string,
): Promise<any> {
  const as = caller(env, user);
  const current = await as('GET', contentUrl(slug, pagePath, n));
  expect(current.status, current.text).toBe(200);
  const res = await as('PUT', contentUrl(slug, pagePath, n), {
    body,
    lastKnownHash: current.body.content_hash,
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
