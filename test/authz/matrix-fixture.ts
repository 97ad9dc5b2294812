import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink } from '../collab/collab-helpers.js';

/** Who calls: the API's roles, a stranger, nobody, and the owner's API keys by scope. */
export const ROLE_ACTORS = ['viewer', 'commenter', 'editor', 'admin', 'superadmin'] as const;
export const KEY_SCOPES = ['read', 'write', 'delete', 'admin'] as const;
export type RoleActor = (typeof ROLE_ACTORS)[number];
export type KeyActor = `key:${(typeof KEY_SCOPES)[number]}`;
export type ActorName = 'anonymous' | 'outsider' | RoleActor | KeyActor;
export const ACTORS: readonly ActorName[] = [
  'anonymous',
  ...ROLE_ACTORS,
  'outsider',
  ...KEY_SCOPES.map((s) => `key:${s}` as const),
];

/** Everything the matrix's requests point at: real ids, so a refusal is about rights, not a typo. */
export interface Fixture {
  ws: { id: string; slug: string };
  orgHandle: string;
  tokens: Record<Exclude<ActorName, 'anonymous'>, string>;
  pageId: string;
  pageHash: string;
  commentId: string;
  invitationId: string;
  linkId: string;
  linkToken: string;
  webhookId: string;
  deliveryId: string;
  uploadName: string;
  templateId: string;
  throwawayKeyId: string;
  versionSlug: string;
  /** A commit of the page's history (the version committed the tree). */
  historyCommit: string;
  /** A sync conflict seeded as the sync engine records one (see `seedConflict`). */
  conflict: { id: string; pageId: string; stamp: string };
  /** A viewer whose role the role-change route is pointed at. */
  bystanderId: string;
  /** A fresh number per call, for names that must not collide. */
  seq(): number;
}

/** A tiny valid PNG (1x1) for the upload route. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixture responses are arbitrary JSON
async function ok(res: Promise<{ status: number; text: string; body: any }>, status: number, what: string) {
  const r = await res;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

/**
 * Builds the fixture through the public API: the owner's starter workspace,
 * one member per role (joined by share link), an outsider with their own
 * organization, the owner's keys of each scope, and one of each resource.
 */
export async function buildFixture(server: TestServer): Promise<Fixture> {
  const owner = await registerUser(server);
  const ws = await firstWorkspace(server, owner);
  const me = await ok(server.request('GET', '/api/auth/me', { token: owner.token }), 200, 'me');
  const members: Partial<Record<RoleActor, TestUser>> = { superadmin: owner };
  for (const role of ['viewer', 'commenter', 'editor', 'admin'] as const) {
    const user = await registerUser(server);
    await joinWithLink(server, owner, ws.id, user, role);
    members[role] = user;
  }
  const bystander = await registerUser(server);
  await joinWithLink(server, owner, ws.id, bystander, 'viewer');
  const outsider = await registerUser(server);

  const keys: Partial<Record<KeyActor, string>> = {};
  for (const scope of KEY_SCOPES) {
    const key = await ok(
      server.request('POST', '/api/v1/api-keys', {
        token: owner.token,
        body: { name: scope, scopes: [scope] },
      }),
      201,
      'api key',
    );
    keys[`key:${scope}`] = key.key;
  }
  const throwaway = await ok(
    server.request('POST', '/api/v1/api-keys', { token: owner.token, body: { name: 'throwaway' } }),
    201,
    'throwaway key',
  );

  const content = (path: string, title: string) =>
    ok(
      server.request('POST', `/api/v1/content/${ws.slug}/${path}`, {
        token: owner.token,
        body: { title, body: 'matrix' },
      }),
      201,
      `page ${path}`,
    );
  const page = await content('matrix/page.md', 'Matrix');
  await content('matrix/victim.md', 'Victim');
  const comment = await ok(
    server.request('POST', `/api/v1/workspaces/${ws.id}/comments`, {
      token: members.commenter!.token,
      body: { page: 'matrix/page.md', body: 'A comment' },
    }),
    201,
    'comment',
  );
  const invitation = await ok(
    server.request('POST', `/api/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
      body: { email: 'matrix-invitee@example.com', role: 'viewer' },
    }),
    201,
    'invitation',
  );
  const link = await ok(
    server.request('POST', `/api/v1/workspaces/${ws.id}/share-links`, {
      token: owner.token,
      body: { role: 'viewer' },
    }),
    201,
    'share link',
  );
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'pixel.png');
  const upload = await fetch(`${server.url}/api/v1/content/${ws.slug}/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}` },
    body: form,
  });
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  const version = await ok(
    server.request('POST', `/api/v1/workspaces/${ws.id}/versions`, {
      token: owner.token,
      body: { slug: 'v1', name: 'Version 1' },
    }),
    201,
    'version',
  );
  const history = await ok(
    server.request('GET', `/api/v1/workspaces/${ws.id}/history?page=matrix/page.md`, { token: owner.token }),
    200,
    'page history',
  );
  await ok(
    server.request('PUT', `/api/v1/workspaces/${ws.id}/custom-domain`, {
      token: owner.token,
      body: { domain: 'docs.matrix.example' },
    }),
    200,
    'custom domain',
  );
  // Deliveries go nowhere (nothing listens on port 9); only who may see them matters here.
  const webhook = await ok(
    server.request('POST', `/api/v1/workspaces/${ws.id}/webhooks`, {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/hook', events: ['page.created'] },
    }),
    201,
    'webhook',
  );
  const deliveries = await ok(
    server.request('GET', `/api/v1/workspaces/${ws.id}/webhooks/${webhook.id}/deliveries`, {
      token: owner.token,
    }),
    200,
    'webhook deliveries',
  );
  const templates = await ok(
    server.request('GET', '/api/v1/templates', { token: owner.token }),
    200,
    'templates',
  );

  // Change request #1, the target of the change-request routes.
  await ok(
    server.request('POST', `/api/v1/workspaces/${ws.id}/change-requests`, {
      token: owner.token,
      body: { title: 'Matrix request' },
    }),
    201,
    'change request',
  );

  let n = 0;
  return {
    ws,
    orgHandle: me.org.handle,
    tokens: {
      viewer: members.viewer!.token,
      commenter: members.commenter!.token,
      editor: members.editor!.token,
      admin: members.admin!.token,
      superadmin: owner.token,
      outsider: outsider.token,
      'key:read': keys['key:read']!,
      'key:write': keys['key:write']!,
      'key:delete': keys['key:delete']!,
      'key:admin': keys['key:admin']!,
    },
    pageId: page.page_id,
    pageHash: page.content_hash,
    commentId: comment.id,
    invitationId: invitation.id,
    linkId: link.id,
    linkToken: link.token,
    webhookId: webhook.id,
    deliveryId: deliveries.data[0].id,
    uploadName: ((await upload.json()) as { filename: string }).filename,
    templateId: templates.data[0].id,
    throwawayKeyId: throwaway.id,
    versionSlug: version.slug,
    historyCommit: history.data[0].commit,
    conflict: await seedConflict(server, ws.id, page.page_id),
    bystanderId: bystander.id,
    seq: () => ++n,
  };
}

/**
 * Records a sync conflict the way the sync engine does (a `sync_conflicts` row
 * and the two sides under `.folio/conflicts/<page_id>/<stamp>/`), so the
 * conflict routes have a real target. Making one through git is the sync
 * suite's business; here only who may touch it matters.
 */
async function seedConflict(server: TestServer, workspaceId: string, pageId: string) {
  const stamp = '20250115T103045Z';
  const id = ulid();
  const dir = path.join(server.dataDir, 'workspaces', workspaceId, '.folio', 'conflicts', pageId, stamp);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'ours.md'), 'ours');
  await fs.writeFile(path.join(dir, 'theirs.md'), 'theirs');
  await server.folio.store.db
    .insertInto('sync_conflicts')
    .values({
      id,
      workspace_id: workspaceId,
      path: 'matrix/page.md',
      page_id: pageId,
      ours_hash: `sha256:${createHash('sha256').update('ours').digest('hex')}`,
      theirs_hash: `sha256:${createHash('sha256').update('theirs').digest('hex')}`,
      stamp,
      created_at: new Date().toISOString(),
      resolved_at: null,
      resolved_by: null,
      resolution: null,
    })
    .execute();
  return { id, pageId, stamp };
}
