/**
 * The older layouts' git webhooks with the instance-wide GIT_WEBHOOK_SECRET, on both
 * databases: Layout C's `/api/v1/webhooks/github` pulls a real push from a bare remote into
 * the workspace whose git_remote is the pushed repository; Layout B's auto-detected
 * `/api/git/webhook` takes a GitLab delivery; bad signatures, other repositories, other
 * branches and unknown hosts are refused or ignored.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import {
  bob,
  cloneRepo,
  commitFile,
  createBareRepo,
  fileUrl,
  pushClone,
  pushCloneRebasing,
} from '../helpers/git-fixtures.js';
import {
  eventually,
  hubSignature,
  pageUrl,
  pushPayload,
  remoteWorkspace,
  type SyncEnv,
  startSync,
} from '../sync/sync-helpers.js';
import { expectDeprecated } from './compat-helpers.js';

const SECRET = 'instance-wide-webhook-secret';

describeEachDatabase('older layouts: git webhooks with GIT_WEBHOOK_SECRET ($name)', (target) => {
  let env: SyncEnv;
  let bare: string;
  let clone: string;
  let ws: { id: string; slug: string };
  let n = 0;

  beforeAll(async () => {
    env = await startSync(target, { env: { GIT_WEBHOOK_SECRET: SECRET } });
    bare = await createBareRepo(env.tmp, 'docs');
    const seed = await cloneRepo(fileUrl(bare), path.join(env.tmp, 'seed'));
    await commitFile(seed, 'README.md', '# Docs\n', bob);
    await pushClone(seed);
    ws = await remoteWorkspace(env, fileUrl(bare));
    clone = await cloneRepo(fileUrl(bare), path.join(env.tmp, 'clone'));
  });
  afterAll(async () => env?.cleanup());

  const pushPage = async () => {
    n += 1;
    await commitFile(clone, `legacy-${n}.md`, `# Legacy ${n}\n`, bob);
    await pushCloneRebasing(clone, bob);
    return `legacy-${n}.md`;
  };
  const present = async (file: string) =>
    (await env.server.request('GET', pageUrl(ws.slug, file), { token: env.owner.token })).status === 200;
  const deliver = (url: string, body: string, headers: Record<string, string>) =>
    env.server.request('POST', url, { body, headers: { 'content-type': 'application/json', ...headers } });

  it('pulls a real push delivered the Layout C way to /api/v1/webhooks/github', async () => {
    const page = await pushPage();
    const body = pushPayload('main', { repository: { clone_url: fileUrl(bare), name: 'docs' } });
    const res = await deliver('/api/v1/webhooks/github', body, {
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(SECRET, body),
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'accepted', workspaces: 1 });
    expectDeprecated(res, '/api/git/webhook/');
    await eventually(() => present(page));
    // Through the current layout: the pulled page has a page_id like any other.
    const read = await env.server.request('GET', pageUrl(ws.slug, page), { token: env.owner.token });
    expect(read.body.page_id).toMatch(/^[0-9A-Z]{26}$/);
  });

  it('takes Layout B’s auto-detected delivery (a GitLab push with its token header)', async () => {
    const page = await pushPage();
    const body = pushPayload('main', { object_kind: 'push', project: { git_http_url: bare } });
    const res = await deliver('/api/git/webhook', body, { 'x-gitlab-token': SECRET });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'accepted', workspaces: 1 });
    await eventually(() => present(page));
  });

  it('refuses a bad signature and ignores other repositories, branches and non-pushes', async () => {
    const body = pushPayload('main', { repository: { clone_url: fileUrl(bare) } });
    const forged = await deliver('/api/v1/webhooks/github', body, {
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature('not-the-secret', body),
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error).toBe('UNAUTHORIZED');
    // The workspace's own secret is not the instance-wide one.
    const own = await env.server.request('GET', `/api/v1/workspaces/${ws.id}`, { token: env.owner.token });
    const withOwn = await deliver('/api/v1/webhooks/github', body, {
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(own.body.webhook_secret, body),
    });
    expect(withOwn.status).toBe(401);

    const signed = (payload: string) => ({
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(SECRET, payload),
    });
    const other = pushPayload('main', { repository: { clone_url: 'https://example.com/someone/else.git' } });
    expect((await deliver('/api/v1/webhooks/github', other, signed(other))).body).toEqual({
      status: 'ignored',
    });
    const branch = pushPayload('feature', { repository: { clone_url: fileUrl(bare) } });
    expect((await deliver('/api/v1/webhooks/gitea', branch, signed(branch))).body).toEqual({
      status: 'ignored',
    });
    const ping = JSON.stringify({ zen: 'hi', repository: { clone_url: fileUrl(bare) } });
    const pinged = await deliver('/api/v1/webhooks/github', ping, {
      ...signed(ping),
      'x-github-event': 'ping',
    });
    expect(pinged.body).toEqual({ status: 'ignored' });

    const unknown = await deliver('/api/v1/webhooks/bitbucket', body, signed(body));
    expect(unknown.status).toBe(404);
  });
});
