/**
 * The authorisation matrix's expectation table: one entry per registered
 * route (`METHOD url`), saying who may call it and with what parameters.
 * test/authz/matrix.test.ts walks it; a route missing here fails that test.
 */
import type { Role } from '../../src/domain/policy.js';
import type { ActorName, Fixture } from './matrix-fixture.js';

export type Op = 'read' | 'write' | 'delete';
export type Outcome = 'allow' | 401 | 403 | 404;

export type Access =
  /** Needs no credentials; called anonymously and only checked for 5xx. */
  | { public: true }
  /** Any signed-in caller, outside any workspace; API keys need the scope for `op`. */
  | { user: true; sessionOnly?: boolean }
  /** A workspace role; API keys (the Super Admin's) need the scope for `op`; strangers get 404. */
  | { role: Role }
  /** The same status for everyone, whoever calls. */
  | { all: number };

export interface RouteSpec {
  access: Access;
  /** The operation for API-key scopes; by default from the method. */
  op?: Op;
  path?: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  multipart?: boolean;
  headers?: Record<string, string>;
  /** The route answers HTML, so refusals carry no JSON error code to check. */
  html?: boolean;
  /** Sends allowed non-GET calls too, because they are harmless to the fixture. */
  callAllowed?: boolean;
  /** Outcomes that differ from `access`, each a rule of the route (see `why`). */
  except?: Partial<Record<ActorName, Outcome>>;
  why?: string;
}

const PAGE = (f: Fixture) => `/api/v1/content/${f.ws.slug}/matrix/page.md`;
const VICTIM = (f: Fixture) => `/api/v1/content/${f.ws.slug}/matrix/victim.md`;
const WS = (f: Fixture, rest = '') => `/api/v1/workspaces/${f.ws.id}${rest}`;
const COMMENT = (f: Fixture, rest = '') => `/api/v1/comments/${f.commentId}${rest}`;
const notAuthor: Partial<Record<ActorName, Outcome>> = {
  editor: 403,
  admin: 403,
  superadmin: 403,
  'key:write': 403,
  'key:admin': 403,
};

/**
 * Every route, keyed `METHOD url` as registered. Order matters only at the
 * end: the routes that would wreck the fixture if wrongly allowed go last.
 */
export const ROUTES: Record<string, RouteSpec> = {
  'GET /api/health': { access: { public: true } },
  'GET /robots.txt': { access: { public: true } },
  'GET /api/ready': { access: { public: true } },
  'GET /api/v1/ai/status': { access: { public: true } },
  'GET /api/ai/status': { access: { public: true } },
  'POST /api/auth/register': {
    access: { public: true },
    body: () => ({
      name: 'M',
      email: 'matrix-register@example.com',
      password: 'short',
      terms_accepted: true,
    }),
  },
  'POST /api/auth/login': {
    access: { public: true },
    body: () => ({ email: 'nobody@example.com', password: 'not the password' }),
  },
  'POST /api/auth/refresh': { access: { public: true }, body: () => ({ refresh_token: 'bogus' }) },
  'POST /api/auth/forgot-password': {
    access: { public: true },
    body: () => ({ email: 'nobody@example.com' }),
  },
  'POST /api/auth/reset-password': {
    access: { public: true },
    body: () => ({ token: 'bogus', new_password: 'long enough password' }),
  },

  'GET /api/auth/providers': { access: { public: true } },
  'POST /api/auth/oidc/:provider': { access: { public: true }, path: () => '/api/auth/oidc/google' },
  'GET /api/auth/oidc/:provider/callback': {
    access: { public: true },
    path: () => '/api/auth/oidc/google/callback?code=x&state=y',
  },
  'POST /api/auth/oidc/claim': { access: { public: true }, body: () => ({ code: 'bogus' }) },
  'POST /api/auth/oidc/link': { access: { user: true }, body: () => ({ code: 'bogus' }) },
  'GET /api/auth/identities': { access: { user: true } },
  'DELETE /api/auth/identities/:id': { access: { user: true }, path: () => '/api/auth/identities/bogus' },
  'POST /api/auth/webauthn/register/begin': {
    access: { user: true, sessionOnly: true },
    callAllowed: true,
    why: 'a passkey is registered in a signed-in browser; an API key has no authenticator',
  },
  'POST /api/auth/webauthn/register/finish': {
    access: { user: true, sessionOnly: true },
    body: () => ({
      response: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'e30' } },
    }),
  },
  'POST /api/auth/webauthn/login/begin': { access: { public: true }, body: () => ({}) },
  'POST /api/auth/webauthn/login/finish': {
    access: { public: true },
    body: () => ({
      response: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'e30' } },
    }),
  },
  'GET /api/auth/webauthn/credentials': { access: { user: true } },
  'PATCH /api/auth/webauthn/credentials/:id': {
    access: { user: true },
    path: () => '/api/auth/webauthn/credentials/bogus',
    body: () => ({ name: 'matrix' }),
  },
  'DELETE /api/auth/webauthn/credentials/:id': {
    access: { user: true },
    path: () => '/api/auth/webauthn/credentials/bogus',
  },

  'GET /api/auth/me': { access: { user: true } },
  'GET /api/auth/sessions': { access: { user: true } },
  'PATCH /api/auth/me': { access: { user: true }, body: () => ({ name: 'Matrix' }) },
  'POST /api/auth/change-password': {
    access: { user: true, sessionOnly: true },
    body: () => ({ current_password: 'not the password', new_password: 'a new password' }),
  },
  'POST /api/auth/ws-token': {
    access: { user: true, sessionOnly: true },
    callAllowed: true,
    why: 'The WebSocket cookie is for a signed-in session, not an API key',
  },
  'POST /api/auth/invitations/accept': {
    access: { user: true },
    body: () => ({ token: 'bogus' }),
    callAllowed: true,
  },
  'GET /api/v1/api-keys': { access: { user: true } },
  'POST /api/v1/api-keys': { access: { user: true }, body: () => ({ name: 'matrix' }), callAllowed: true },
  'POST /api/v1/api-keys/:id/rotate': {
    access: { user: true },
    path: (f) => `/api/v1/api-keys/${f.throwawayKeyId}/rotate`,
  },
  'DELETE /api/v1/api-keys/:id': {
    access: { user: true },
    path: (f) => `/api/v1/api-keys/${f.throwawayKeyId}`,
  },
  'GET /api/v1/templates': { access: { user: true } },
  'GET /api/v1/templates/:id': { access: { user: true }, path: (f) => `/api/v1/templates/${f.templateId}` },
  'GET /api/v1/users/me/onboarding': { access: { user: true } },
  'PATCH /api/v1/users/me/onboarding': {
    access: { user: true },
    body: () => ({ steps: { connect_git: false } }),
    callAllowed: true,
  },
  'GET /api/v1/workspaces': { access: { user: true } },
  'POST /api/v1/workspaces': {
    access: { role: 'superadmin' },
    body: (f) => ({ name: 'M', slug: `matrix-${f.seq()}`, org: f.orgHandle }),
    callAllowed: true,
    except: { outsider: 403 },
    why: 'creating in another organization needs its Super Admin; organizations are not secret',
  },
  'POST /api/v1/share-links/:token/use': {
    access: { user: true },
    path: (f) => `/api/v1/share-links/${f.linkToken}/use`,
    why: 'any signed-in user may join with a link; not sent when allowed, it would make the outsider a member',
  },
  'POST /api/v1/ai/writing-assist': {
    access: { role: 'editor' },
    body: (f) => ({ action: 'improve', content: 'Some text.', workspace_id: f.ws.id }),
    callAllowed: true,
  },
  'POST /api/v1/ai/chat': {
    access: { role: 'viewer' },
    op: 'write',
    body: (f) => ({ messages: [{ role: 'user', content: 'What is this?' }], workspace_id: f.ws.id }),
    callAllowed: true,
    why: 'chat only reads, but it is a POST, so keys need the write scope',
  },

  'GET /api/v1/workspaces/:id': { access: { role: 'viewer' } },
  'GET /api/v1/content/:workspace/tree': { access: { role: 'viewer' } },
  'GET /api/v1/content/:workspace/navigation': { access: { role: 'viewer' } },
  'GET /api/v1/content/:workspace/*': { access: { role: 'viewer' }, path: PAGE },
  'POST /api/v1/content/:workspace/*': {
    access: { role: 'editor' },
    path: (f) => `/api/v1/content/${f.ws.slug}/matrix/new-${f.seq()}.md`,
    body: () => ({ title: 'New' }),
    callAllowed: true,
  },
  'PUT /api/v1/content/:workspace/*': {
    access: { role: 'editor' },
    path: PAGE,
    body: (f) => ({ body: 'Edited', lastKnownHash: f.pageHash }),
    callAllowed: true,
  },
  'POST /api/v1/content/:workspace/preview': {
    access: { role: 'viewer' },
    op: 'write',
    body: () => ({ path: 'matrix/preview.md', content: '# Preview\n' }),
    callAllowed: true,
    why: 'renders the text it is given as the site would: readers may, but it is a POST, so keys need write',
  },
  'POST /api/v1/content/:workspace/reorder': {
    access: { role: 'editor' },
    body: (f) => ({ parent_path: 'matrix', order: [{ id: f.pageId, sort_order: 3 }] }),
    callAllowed: true,
  },
  'POST /api/v1/content/:workspace/uploads': {
    access: { role: 'editor' },
    multipart: true,
    callAllowed: true,
  },
  'POST /api/v1/content/:workspace/uploads/from-url': {
    access: { role: 'editor' },
    body: () => ({ url: 'https://images.example.com/a.png' }),
  },
  'GET /api/v1/content/:workspace/uploads/:filename': {
    access: { role: 'viewer' },
    path: (f) => `/api/v1/content/${f.ws.slug}/uploads/${f.uploadName}`,
  },
  'GET /api/v1/workspaces/:id/activity': { access: { role: 'viewer' } },
  'GET /api/v1/workspaces/:id/page-activity': {
    access: { role: 'viewer' },
    path: (f) => WS(f, '/page-activity?page=matrix/page.md'),
  },
  'GET /api/v1/workspaces/:id/search': { access: { role: 'viewer' }, path: (f) => WS(f, '/search?q=matrix') },

  'GET /api/v1/workspaces/:id/comments': {
    access: { role: 'viewer' },
    path: (f) => WS(f, '/comments?page=matrix/page.md'),
  },
  'POST /api/v1/workspaces/:id/comments': {
    access: { role: 'commenter' },
    body: () => ({ page: 'matrix/page.md', body: 'From the matrix' }),
    callAllowed: true,
  },
  'PUT /api/v1/comments/:id': {
    access: { role: 'commenter' },
    path: (f) => COMMENT(f),
    body: () => ({ body: 'Edited comment' }),
    callAllowed: true,
    except: notAuthor,
    why: 'only the author edits a comment (the keys are the owner’s, who did not write it)',
  },
  'POST /api/v1/comments/:id/resolve': {
    access: { role: 'editor' },
    path: (f) => COMMENT(f, '/resolve'),
    callAllowed: true,
  },
  'POST /api/v1/comments/:id/unresolve': {
    access: { role: 'editor' },
    path: (f) => COMMENT(f, '/unresolve'),
    callAllowed: true,
  },

  'GET /api/v1/workspaces/:id/members': { access: { role: 'commenter' } },
  'GET /api/v1/workspaces/:id/admin/members': { access: { role: 'admin' } },
  'PUT /api/v1/workspaces/:id/admin/members/:user_id/role': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/admin/members/${f.bystanderId}/role`),
    body: () => ({ role: 'viewer' }),
    callAllowed: true,
  },
  'GET /api/v1/workspaces/:id/invitations': { access: { role: 'admin' } },
  'POST /api/v1/workspaces/:id/invitations': {
    access: { role: 'admin' },
    body: (f) => ({ email: `matrix-${f.seq()}@example.com`, role: 'viewer' }),
    callAllowed: true,
  },
  'GET /api/v1/workspaces/:id/share-links': { access: { role: 'admin' } },
  'GET /api/v1/workspaces/:id/change-requests': { access: { role: 'viewer' } },
  'POST /api/v1/workspaces/:id/change-requests': {
    access: { role: 'editor' },
    body: () => ({ title: 'Another request' }),
    callAllowed: true,
  },
  'GET /api/v1/workspaces/:id/change-requests/:n': {
    access: { role: 'viewer' },
    path: (f) => WS(f, '/change-requests/1'),
  },
  'POST /api/v1/workspaces/:id/change-requests/:n/reviews': {
    access: { role: 'commenter' },
    path: (f) => WS(f, '/change-requests/1/reviews'),
    body: () => ({ verdict: 'comment', body: 'A remark' }),
    callAllowed: true,
  },
  'POST /api/v1/workspaces/:id/change-requests/:n/merge': {
    access: { role: 'editor' },
    path: (f) => WS(f, '/change-requests/1/merge'),
  },
  'POST /api/v1/workspaces/:id/change-requests/:n/close': {
    access: { role: 'editor' },
    path: (f) => WS(f, '/change-requests/1/close'),
  },
  'GET /api/v1/workspaces/:id/webhooks': { access: { role: 'admin' } },
  'POST /api/v1/workspaces/:id/webhooks': {
    access: { role: 'admin' },
    body: () => ({ url: 'http://127.0.0.1:9/other', events: ['page.deleted'] }),
  },
  'GET /api/v1/workspaces/:id/webhooks/:wid': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/webhooks/${f.webhookId}`),
  },
  'PUT /api/v1/workspaces/:id/webhooks/:wid': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/webhooks/${f.webhookId}`),
    body: () => ({ events: ['page.created', 'page.updated'] }),
    callAllowed: true,
  },
  'GET /api/v1/workspaces/:id/webhooks/:wid/deliveries': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/webhooks/${f.webhookId}/deliveries`),
  },
  'POST /api/v1/workspaces/:id/webhooks/:wid/deliveries/:delivery_id/redeliver': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/webhooks/${f.webhookId}/deliveries/${f.deliveryId}/redeliver`),
    callAllowed: true,
  },
  'POST /api/v1/workspaces/:id/share-links': {
    access: { role: 'admin' },
    body: () => ({ role: 'viewer', max_uses: 1 }),
    callAllowed: true,
  },
  'GET /api/v1/workspaces/:id/admin/settings': { access: { role: 'admin' } },
  'GET /api/v1/workspaces/:id/admin/navigation': { access: { role: 'admin' } },
  'POST /api/v1/workspaces/:id/imports': {
    access: { role: 'editor' },
    path: (f) => WS(f, '/imports?from=notion'),
    headers: { 'content-type': 'application/zip' },
    why: 'an import writes pages, as an editor may',
  },
  'GET /api/v1/workspaces/:id/imports/:job_id': {
    access: { role: 'editor' },
    op: 'write',
    path: (f) => WS(f, '/imports/01JMATRIXMATRIXMATRIXMATRI'),
    except: { editor: 404, admin: 404, superadmin: 404, 'key:write': 404, 'key:admin': 404 },
    why: 'reading an import job is part of importing (keys need write); an unknown job is 404 to anyone who may import',
  },
  'PUT /api/v1/workspaces/:id/admin/settings': {
    access: { role: 'admin' },
    body: () => ({ site_description: 'Matrix' }),
    callAllowed: true,
  },
  'OPTIONS /mcp': { access: { public: true }, why: 'the CORS preflight of /mcp' },
  'GET /mcp': { access: { all: 405 }, why: 'stateless MCP: no server-initiated stream' },
  'DELETE /mcp': { access: { all: 405 }, why: 'stateless MCP: no session to end' },
  'POST /mcp': {
    access: { user: true },
    op: 'read',
    headers: { accept: 'application/json, text/event-stream' },
    body: () => ({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    callAllowed: true,
    except: Object.fromEntries(
      (['viewer', 'commenter', 'editor', 'admin', 'superadmin', 'outsider'] as const).map((a) => [a, 401]),
    ),
    why: 'MCP takes only API keys; each tool checks the workspace role and scope itself',
  },
  'POST /api/git/webhook/:id': {
    access: { public: true },
    body: () => ({ ref: 'refs/heads/main' }),
    why: 'no bearer token: the workspace secret signs the body',
  },
  'GET /api/custom-domains/allowed': {
    access: { public: true },
    path: () => '/api/custom-domains/allowed?domain=docs.matrix.example',
    why: 'asked by the TLS terminator before it obtains a certificate',
  },
  'POST /api/analytics/consent': { access: { public: true }, body: () => ({ consent: false }) },
  'GET /': {
    access: { public: true },
    headers: { accept: 'text/html' },
    html: true,
    why: 'the web app: it signs the writer in itself, every call it makes is checked',
  },
  'GET /assets/*': {
    access: { public: true },
    path: () => '/assets/missing.js',
    why: "the web app's built scripts and styles, public like any site's",
  },
  'GET /favicon.svg': { access: { public: true }, why: "the web app's icon" },
  'GET /api/openapi.json': { access: { public: true }, why: 'the OpenAPI document of the API' },
  'GET /api/docs': {
    access: { public: true },
    html: true,
    why: 'the API reference page (swagger-ui); the document and its assets are public too',
  },
  'GET /api/docs/static/folio-docs.js': { access: { public: true }, why: "the page's own script" },
  'GET /api/docs/static/:file': {
    access: { public: true },
    path: () => '/api/docs/static/swagger-ui.css',
    why: "swagger-ui's scripts and styles, three files by name",
  },
  'GET /p/:workspace': {
    access: { all: 301 },
    path: (f) => `/p/${f.ws.slug}`,
    why: 'adds the trailing slash',
  },
  'GET /p/:workspace/*': {
    access: { role: 'viewer' },
    path: (f) => `/p/${f.ws.slug}/`,
    html: true,
    except: { anonymous: 404 },
    why: 'a members-only site answers 404 to anonymous readers',
  },

  'GET /api/v1/workspaces/:id/conflicts': { access: { role: 'viewer' } },
  'GET /api/v1/workspaces/:id/sync/conflicts/:conflict_id': {
    access: { role: 'viewer' },
    path: (f) => WS(f, `/sync/conflicts/${f.conflict.id}`),
  },
  'GET /api/v1/conflicts/:page_id/:timestamp/:version': {
    access: { role: 'viewer' },
    path: (f) => `/api/v1/conflicts/${f.conflict.pageId}/${f.conflict.stamp}/ours`,
  },
  'GET /api/v1/workspaces/:id/deploy-key': { access: { role: 'admin' } },
  'PUT /api/v1/workspaces/:id/git-credentials': {
    access: { role: 'admin' },
    body: () => ({ username: 'matrix', password: 'secret' }),
    callAllowed: true,
  },
  'GET /api/v1/workspaces/:id/versions': { access: { role: 'viewer' } },
  'GET /api/v1/workspaces/:id/versions/:slug': {
    access: { role: 'viewer' },
    path: (f) => WS(f, `/versions/${f.versionSlug}`),
  },
  'POST /api/v1/workspaces/:id/versions': {
    access: { role: 'admin' },
    body: (f) => ({ slug: `m${f.seq()}`, name: 'Matrix' }),
    callAllowed: true,
  },
  'PUT /api/v1/workspaces/:id/versions/:slug/default': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/versions/${f.versionSlug}/default`),
    callAllowed: true,
  },
  'GET /api/v1/workspaces/:id/export': { access: { role: 'viewer' } },
  'GET /api/v1/workspaces/:id/history': {
    access: { role: 'viewer' },
    path: (f) => WS(f, '/history?page=matrix/page.md'),
  },
  'GET /api/v1/workspaces/:id/history/diff': {
    access: { role: 'viewer' },
    path: (f) => WS(f, `/history/diff?page=matrix/page.md&from=${f.historyCommit}`),
  },
  'GET /api/v1/workspaces/:id/history/deleted': { access: { role: 'viewer' } },
  'GET /api/v1/workspaces/:id/history/:commit': {
    access: { role: 'viewer' },
    path: (f) => WS(f, `/history/${f.historyCommit}?page=matrix/page.md`),
  },
  'POST /api/v1/workspaces/:id/history/restore': {
    access: { role: 'editor' },
    body: (f) => ({ page: 'matrix/page.md', commit: f.historyCommit, lastKnownHash: 'sha256:stale' }),
    callAllowed: true,
    why: 'sent when allowed: the stale hash makes it a 409 that changes nothing',
  },
  'POST /api/v1/workspaces/:id/export': {
    access: { role: 'viewer' },
    op: 'read',
    callAllowed: true,
    why: 'GET and POST behave identically, so a read-only key may POST it',
  },
  'GET /api/v1/workspaces/:id/quality': { access: { role: 'admin' } },
  'GET /api/v1/workspaces/:id/custom-domain': { access: { role: 'admin' } },
  'GET /api/v1/workspaces/:id/analytics/pages': { access: { role: 'admin' } },
  'GET /api/v1/workspaces/:id/analytics/searches': { access: { role: 'admin' } },
  'GET /api/v1/workspaces/:id/analytics/overview': { access: { role: 'admin' } },
  'GET /ws': {
    access: { all: 401 },
    why: 'the stream takes only the svc_ws_token cookie; a bearer token or API key is not enough',
  },

  // Destructive when wrongly allowed: last, and never sent for allowed callers.
  'POST /api/v1/workspaces/:id/sync': {
    access: { role: 'admin' },
    why: 'not sent when allowed: it runs git',
  },
  'POST /api/v1/workspaces/:id/publish': {
    access: { role: 'admin' },
    why: 'not sent when allowed: it would make the site public and change the /p expectations',
  },
  'PUT /api/v1/workspaces/:id/git-remote': {
    access: { role: 'admin' },
    body: () => ({ git_remote: null }),
  },
  'PUT /api/v1/workspaces/:id/custom-domain': {
    access: { role: 'admin' },
    body: () => ({ domain: 'other.matrix.example' }),
  },
  'POST /api/v1/workspaces/:id/sync/conflicts/:conflict_id/resolve': {
    access: { role: 'editor' },
    path: (f) => WS(f, `/sync/conflicts/${f.conflict.id}/resolve`),
    body: () => ({ resolution: 'ours' }),
  },
  'POST /api/v1/conflicts/:page_id/:timestamp/resolve': {
    access: { role: 'editor' },
    path: (f) => `/api/v1/conflicts/${f.conflict.pageId}/${f.conflict.stamp}/resolve`,
  },
  'DELETE /api/v1/workspaces/:id/git-credentials': { access: { role: 'admin' } },
  'DELETE /api/v1/workspaces/:id/git-host-key': { access: { role: 'admin' } },
  'DELETE /api/v1/workspaces/:id/custom-domain': { access: { role: 'admin' } },
  'DELETE /api/v1/workspaces/:id/versions/:slug': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/versions/${f.versionSlug}`),
  },
  'POST /api/v1/content/:workspace/move': {
    access: { role: 'editor' },
    body: () => ({ path: 'matrix/victim.md', new_path: 'matrix/victim-moved.md' }),
  },
  'PATCH /api/v1/content/:workspace/*': {
    access: { role: 'editor' },
    path: VICTIM,
    body: () => ({ new_path: 'matrix/victim-2.md' }),
  },
  'DELETE /api/v1/content/:workspace/*': { access: { role: 'editor' }, path: VICTIM },
  'DELETE /api/v1/comments/:id': {
    access: { role: 'commenter' },
    path: (f) => COMMENT(f),
    except: { editor: 403 },
    why: 'the author or an admin deletes a comment',
  },
  'DELETE /api/v1/workspaces/:id/invitations/:invitationId': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/invitations/${f.invitationId}`),
  },
  'DELETE /api/v1/workspaces/:id/webhooks/:wid': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/webhooks/${f.webhookId}`),
    why: 'not sent when allowed: the other webhook routes point at it',
  },
  'DELETE /api/v1/workspaces/:id/share-links/:linkId': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/share-links/${f.linkId}`),
  },
  'DELETE /api/v1/workspaces/:id/admin/members/:user_id': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/admin/members/${f.bystanderId}`),
    why: 'not sent when allowed: it would remove the bystander the role-change route points at',
  },
  // The older layouts (docs/compatibility.md, src/http/compat): the same services, the same rules.
  'GET /health': { access: { public: true } },
  'GET /ready': { access: { public: true } },
  'GET /api/health [Folio-Layout: B]': { access: { public: true }, headers: { 'folio-layout': 'B' } },
  'POST /api/auth/ws-token [Folio-Layout: B]': {
    access: { user: true, sessionOnly: true },
    headers: { 'folio-layout': 'B' },
    callAllowed: true,
    why: 'as ws-token: the single-use WebSocket cookie is for a signed-in session, not an API key',
  },
  'POST /api/auth/register [Folio-Layout: B]': {
    access: { public: true },
    headers: { 'folio-layout': 'B' },
    body: () => ({ name: 'M', email: 'matrix-register-b@example.com', password: 'short' }),
  },
  'POST /api/v1/auth/register': {
    access: { public: true },
    body: () => ({ name: 'M', email: 'matrix-register-c@example.com', password: 'short' }),
  },
  'POST /api/v1/auth/login': {
    access: { public: true },
    body: () => ({ email: 'nobody@example.com', password: 'not the password' }),
  },
  'POST /api/v1/auth/refresh': { access: { public: true }, body: () => ({ refresh_token: 'bogus' }) },
  'POST /api/v1/auth/password-reset': {
    access: { public: true },
    body: () => ({ email: 'nobody@example.com' }),
  },
  'POST /api/v1/auth/password-reset/confirm': {
    access: { public: true },
    body: () => ({ token: 'bogus', new_password: 'long enough password' }),
  },
  'GET /api/v1/auth/callback/:provider': {
    access: { public: true },
    path: () => '/api/v1/auth/callback/google?code=x&state=y',
  },
  'POST /api/v1/auth/ws-ticket': {
    access: { user: true, sessionOnly: true },
    callAllowed: true,
    why: 'as ws-token: a WebSocket ticket is for a signed-in session, not an API key',
  },
  'POST /api/v1/webhooks/:host': {
    access: { public: true },
    path: () => '/api/v1/webhooks/github',
    body: () => ({ ref: 'refs/heads/main' }),
    why: 'validated by GIT_WEBHOOK_SECRET, not by a caller',
  },
  'POST /api/git/webhook': { access: { public: true }, body: () => ({ ref: 'refs/heads/main' }) },
  'POST /api/v1/workspaces/:id/assets': { access: { role: 'editor' }, multipart: true, callAllowed: true },
  'POST /api/v1/content/:workspace/assets': {
    access: { role: 'editor' },
    multipart: true,
    callAllowed: true,
  },
  'GET /api/v1/search': {
    access: { role: 'viewer' },
    path: (f) => `/api/v1/search?q=matrix&workspace=${f.ws.id}`,
  },
  'PUT /api/v1/content/:workspace/* [Folio-Layout: B]': {
    access: { role: 'editor' },
    headers: { 'folio-layout': 'B' },
    path: PAGE,
    body: () => ({ move_to: 'matrix/moved-by-b.md' }),
    why: 'not sent when allowed: it would move the fixture page',
  },
  'POST /api/v1/ai/writing-assist [Folio-Layout: B]': {
    access: { role: 'editor' },
    headers: { 'folio-layout': 'B' },
    body: (f) => ({ workspace_id: f.ws.id, operation: 'improve', content: 'Some text.' }),
    callAllowed: true,
  },
  'GET /api/v1/workspaces/:id/pages': { access: { role: 'viewer' } },
  'POST /api/v1/workspaces/:id/pages': {
    access: { role: 'editor' },
    body: (f) => ({ title: `Matrix by id ${f.seq()}` }),
  },
  'GET /api/v1/workspaces/:id/pages/:page_id': {
    access: { role: 'viewer' },
    path: (f) => WS(f, `/pages/${f.pageId}`),
  },
  'PUT /api/v1/workspaces/:id/pages/:page_id': {
    access: { role: 'editor' },
    path: (f) => WS(f, `/pages/${f.pageId}`),
    body: (f) => ({ content: 'matrix', content_hash: f.pageHash }),
  },
  'DELETE /api/v1/workspaces/:id/pages/:page_id': {
    access: { role: 'editor' },
    path: (f) => WS(f, `/pages/${f.pageId}`),
  },
  'GET /api/v1/workspaces/:id/members [Folio-Layout: C]': {
    access: { role: 'admin' },
    headers: { 'folio-layout': 'C' },
  },
  'PUT /api/v1/workspaces/:id/members/:user_id/role': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/members/${f.bystanderId}/role`),
    body: () => ({ role: 'viewer' }),
    callAllowed: true,
  },
  'DELETE /api/v1/workspaces/:id/members/:user_id': {
    access: { role: 'admin' },
    path: (f) => WS(f, `/members/${f.bystanderId}`),
    why: 'not sent when allowed: it would remove the bystander the role-change routes point at',
  },
  'DELETE /api/v1/workspaces/:id': { access: { role: 'superadmin' } },
  'POST /api/auth/logout': {
    access: { user: true },
    why: 'last: an allowed call would end the fixture’s sessions',
  },
};
