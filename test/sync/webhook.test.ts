import { createHmac } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '../helpers/databases.js';
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
  postWebhook,
  pushPayload,
  remoteWorkspace,
  type SyncEnv,
  startSync,
} from './sync-helpers.js';

// Signature checks do not depend on the database: SQLite only.
const [sqlite] = databaseTargets();

describe('git webhooks', () => {
  let env: SyncEnv;
  afterEach(() => env?.cleanup());

  /** A workspace on a bare remote, a clone to push from, and a helper that pushes one new page. */
  async function setup(options: Parameters<typeof startSync>[1] = {}) {
    env = await startSync(sqlite!, options);
    const bare = await createBareRepo(env.tmp, 'docs');
    const ws = await remoteWorkspace(env, fileUrl(bare));
    await commitFile(
      await cloneRepo(fileUrl(bare), path.join(env.tmp, 'seed')),
      'README.md',
      '# Docs\n',
      bob,
    );
    await pushClone(path.join(env.tmp, 'seed'));
    const clone = await cloneRepo(fileUrl(bare), path.join(env.tmp, 'clone'));
    let n = 0;
    const pushPage = async () => {
      n += 1;
      // Folio pushes in the background (its first sync merges the remote's history with its own),
      // so the remote may move under this clone at any moment.
      await commitFile(clone, `hook-${n}.md`, `# Delivered ${n}\n`, bob);
      await pushCloneRebasing(clone, bob);
      return `hook-${n}.md`;
    };
    const arrived = (file: string) =>
      eventually(async () => {
        const r = await env.server.request('GET', pageUrl(ws.slug, file), { token: env.owner.token });
        return r.status === 200;
      });
    return { ws, pushPage, arrived };
  }

  it('accepts GitHub pushes signed with X-Hub-Signature-256 or X-Hub-Signature, and refuses bad ones', async () => {
    const { ws, pushPage, arrived } = await setup();
    const body = pushPayload('main');
    const github = { 'x-github-event': 'push', 'x-github-delivery': 'd1' };

    const page = await pushPage();
    const good = await postWebhook(env, ws.id, body, {
      ...github,
      'x-hub-signature-256': hubSignature(ws.webhook_secret, body),
    });
    expect(good.status).toBe(202);
    expect(good.body).toEqual({ status: 'accepted' });
    await arrived(page);

    const legacyPage = await pushPage();
    const legacy = await postWebhook(env, ws.id, body, {
      ...github,
      'x-hub-signature': hubSignature(ws.webhook_secret, body, 'sha1'),
    });
    expect(legacy.status).toBe(202);
    await arrived(legacyPage);

    const refusals: Array<[string, Record<string, string>, string]> = [
      ['wrong secret', { 'x-hub-signature-256': hubSignature('not-the-secret', body) }, body],
      [
        'tampered body',
        { 'x-hub-signature-256': hubSignature(ws.webhook_secret, body) },
        body.replace('main', 'mainx'),
      ],
      [
        'weak header cannot replace a failing strong one',
        {
          'x-hub-signature-256': hubSignature('wrong', body),
          'x-hub-signature': hubSignature(ws.webhook_secret, body, 'sha1'),
        },
        body,
      ],
      ['no signature', {}, body],
      ['malformed', { 'x-hub-signature-256': 'sha256=zz' }, body],
    ];
    for (const [what, headers, sent] of refusals) {
      const res = await postWebhook(env, ws.id, sent, { ...github, ...headers });
      expect(res.status, what).toBe(401);
      expect(res.body, what).toMatchObject({ error: 'UNAUTHORIZED', request_id: expect.any(String) });
    }
  });

  it('accepts GitHub form-encoded deliveries, verified over the raw bytes', async () => {
    const { ws, pushPage, arrived } = await setup();
    const page = await pushPage();
    const form = `payload=${encodeURIComponent(pushPayload('main'))}`;
    const res = await env.server.request('POST', `/api/git/webhook/${ws.id}`, {
      body: form,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-github-event': 'push',
        'x-hub-signature-256': hubSignature(ws.webhook_secret, form),
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'accepted' });
    await arrived(page);
  });

  it('accepts GitLab pushes with X-Gitlab-Token only when it equals the secret', async () => {
    const { ws, pushPage, arrived } = await setup();
    const body = JSON.stringify({
      object_kind: 'push',
      ref: 'refs/heads/main',
      before: '1'.repeat(40),
      after: '2'.repeat(40),
      total_commits_count: 1,
      commits: [{ id: '2'.repeat(40) }],
      project: { path_with_namespace: 'team/docs' },
    });
    const page = await pushPage();
    const good = await postWebhook(env, ws.id, body, {
      'x-gitlab-event': 'Push Hook',
      'x-gitlab-token': ws.webhook_secret,
    });
    expect(good.status).toBe(202);
    expect(good.body).toEqual({ status: 'accepted' });
    await arrived(page);
    for (const token of [`${ws.webhook_secret}x`, ws.webhook_secret.slice(1), '']) {
      const bad = await postWebhook(env, ws.id, body, {
        'x-gitlab-event': 'Push Hook',
        'x-gitlab-token': token,
      });
      expect(bad.status).toBe(401);
    }
  });

  it('accepts Gitea and Forgejo pushes signed with their bare-hex signature', async () => {
    const { ws, pushPage, arrived } = await setup();
    const body = pushPayload('main', { total_commits: 1, repository: { full_name: 'team/docs' } });
    const hex = createHmac('sha256', ws.webhook_secret).update(body).digest('hex');
    const page = await pushPage();
    const gitea = await postWebhook(env, ws.id, body, { 'x-gitea-event': 'push', 'x-gitea-signature': hex });
    expect(gitea.status).toBe(202);
    expect(gitea.body).toEqual({ status: 'accepted' });
    await arrived(page);
    const forgejoPage = await pushPage();
    const forgejo = await postWebhook(env, ws.id, body, {
      'x-forgejo-event': 'push',
      'x-forgejo-signature': hex,
    });
    expect(forgejo.status).toBe(202);
    await arrived(forgejoPage);
    const bad = await postWebhook(env, ws.id, body, {
      'x-gitea-event': 'push',
      'x-gitea-signature': createHmac('sha256', 'other').update(body).digest('hex'),
    });
    expect(bad.status).toBe(401);
  });

  it('ignores pushes to other branches and non-push events, and answers 404 for unknown workspaces', async () => {
    const { ws } = await setup();
    const other = pushPayload('feature/x');
    const ignored = await postWebhook(env, ws.id, other, {
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(ws.webhook_secret, other),
    });
    expect(ignored.status).toBe(202);
    expect(ignored.body).toEqual({ status: 'ignored' });
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const pinged = await postWebhook(env, ws.id, ping, {
      'x-github-event': 'ping',
      'x-hub-signature-256': hubSignature(ws.webhook_secret, ping),
    });
    expect(pinged.status).toBe(202);
    expect(pinged.body).toEqual({ status: 'ignored' });
    // Nothing was synced for either.
    expect(env.events.some((e) => e.type === 'sync-status')).toBe(false);

    const body = pushPayload('main');
    const unknown = await postWebhook(env, '01JUNKNOWNWORKSPACE0000000', body, {
      'x-hub-signature-256': hubSignature(ws.webhook_secret, body),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('NOT_FOUND');
    // A soft-deleted workspace is unknown too.
    expect(
      (await env.server.request('DELETE', `/api/v1/workspaces/${ws.id}`, { token: env.owner.token })).status,
    ).toBe(204);
    const deleted = await postWebhook(env, ws.id, body, {
      'x-hub-signature-256': hubSignature(ws.webhook_secret, body),
    });
    expect(deleted.status).toBe(404);
  });

  it('counts deliveries in the gitWebhook bucket and keeps JSON parsing elsewhere intact', async () => {
    const { ws } = await setup({ rateLimits: { gitWebhook: { limit: 3 } } });
    const body = pushPayload('other');
    const send = () =>
      postWebhook(env, ws.id, body, { 'x-hub-signature-256': hubSignature(ws.webhook_secret, body) });
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(202);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBeTruthy();
    // Other routes still parse JSON (the raw-body parser is scoped to the webhook).
    const created = await env.server.request('POST', pageUrl(ws.slug, 'json.md'), {
      token: env.owner.token,
      body: { title: 'Still JSON' },
    });
    expect(created.status).toBe(201);
    const broken = await env.server.request('POST', pageUrl(ws.slug, 'bad.md'), {
      token: env.owner.token,
      body: '{not json',
    });
    expect(broken.status).toBe(400);
  });
});
