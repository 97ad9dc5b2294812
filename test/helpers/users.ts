import type { TestServer } from './server.js';

export interface TestUser {
  id: string;
  email: string;
  handle: string;
  token: string;
  password: string;
}

let counter = 0;

/** Registers a fresh user (with their organization and starter workspace) and answers their access token. */
export async function registerUser(
  server: Pick<TestServer, 'request'>,
  overrides: { email?: string; name?: string; password?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const email = overrides.email ?? `user${counter}-${Date.now()}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const res = await server.request('POST', '/api/auth/register', {
    body: { name: overrides.name ?? `User ${counter}`, email, password, terms_accepted: true },
    // Each registration from its own address, so the 5-per-hour limit never trips a suite.
    headers: { 'x-forwarded-for': `10.0.${counter >> 8}.${counter & 255}` },
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return {
    id: res.body.user.id,
    email,
    handle: res.body.user.handle,
    token: res.body.access_token,
    password,
  };
}

/** The caller's first workspace: for a fresh user, the starter workspace registration made. */
export async function firstWorkspace(
  server: Pick<TestServer, 'request'>,
  user: TestUser,
): Promise<{ id: string; slug: string }> {
  const res = await server.request('GET', '/api/v1/workspaces', { token: user.token });
  if (res.status !== 200 || !res.body.data[0]) throw new Error(`no workspace: ${res.status} ${res.text}`);
  return { id: res.body.data[0].id, slug: res.body.data[0].slug };
}
