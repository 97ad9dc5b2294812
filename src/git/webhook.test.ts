import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parsePushPayload, verifyWebhookSignature } from './webhook.js';

const secret = 'whsec_3b9f2c71a0';
const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main', after: 'abc' }));
const hmac = (algo: string, key = secret, data: Buffer = body): string =>
  createHmac(algo, key).update(data).digest('hex');

describe('verifyWebhookSignature', () => {
  it('accepts X-Hub-Signature-256 and rejects a wrong one', () => {
    expect(verifyWebhookSignature({ 'x-hub-signature-256': `sha256=${hmac('sha256')}` }, body, secret)).toBe(
      true,
    );
    expect(verifyWebhookSignature({ 'X-Hub-Signature-256': `sha256=${hmac('sha256')}` }, body, secret)).toBe(
      true,
    );
    expect(
      verifyWebhookSignature({ 'x-hub-signature-256': `sha256=${hmac('sha256', 'other')}` }, body, secret),
    ).toBe(false);
    const tampered = Buffer.from(body.toString().replace('main', 'evil'));
    expect(
      verifyWebhookSignature({ 'x-hub-signature-256': `sha256=${hmac('sha256')}` }, tampered, secret),
    ).toBe(false);
    expect(verifyWebhookSignature({ 'x-hub-signature-256': `sha1=${hmac('sha1')}` }, body, secret)).toBe(
      false,
    );
  });

  it('accepts X-Hub-Signature with sha1 or sha256 and rejects wrong ones', () => {
    expect(verifyWebhookSignature({ 'x-hub-signature': `sha1=${hmac('sha1')}` }, body, secret)).toBe(true);
    expect(verifyWebhookSignature({ 'x-hub-signature': `sha256=${hmac('sha256')}` }, body, secret)).toBe(
      true,
    );
    expect(verifyWebhookSignature({ 'x-hub-signature': `sha1=${hmac('sha1', 'other')}` }, body, secret)).toBe(
      false,
    );
    expect(verifyWebhookSignature({ 'x-hub-signature': `md5=${hmac('md5')}` }, body, secret)).toBe(false);
  });

  it('accepts Gitea/Forgejo bare-hex signatures', () => {
    expect(verifyWebhookSignature({ 'x-gitea-signature': hmac('sha256') }, body, secret)).toBe(true);
    expect(verifyWebhookSignature({ 'x-forgejo-signature': hmac('sha256') }, body, secret)).toBe(true);
    expect(verifyWebhookSignature({ 'x-gitea-signature': hmac('sha256', 'x') }, body, secret)).toBe(false);
  });

  it('accepts X-Gitlab-Token equal to the secret only', () => {
    expect(verifyWebhookSignature({ 'x-gitlab-token': secret }, body, secret)).toBe(true);
    expect(verifyWebhookSignature({ 'x-gitlab-token': [secret] }, body, secret)).toBe(true);
    expect(verifyWebhookSignature({ 'x-gitlab-token': `${secret}x` }, body, secret)).toBe(false);
    expect(verifyWebhookSignature({ 'x-gitlab-token': '' }, body, secret)).toBe(false);
  });

  it('is length-safe and strict about malformed input', () => {
    const short = hmac('sha256').slice(0, 10);
    expect(verifyWebhookSignature({ 'x-hub-signature-256': `sha256=${short}` }, body, secret)).toBe(false);
    expect(verifyWebhookSignature({ 'x-hub-signature-256': `sha256=${'zz'.repeat(32)}` }, body, secret)).toBe(
      false,
    );
    expect(verifyWebhookSignature({ 'x-hub-signature-256': 'garbage' }, body, secret)).toBe(false);
    expect(verifyWebhookSignature({}, body, secret)).toBe(false);
    expect(verifyWebhookSignature({ 'x-gitlab-token': '' }, body, '')).toBe(false);
  });

  it('lets the strongest header present decide', () => {
    const headers = { 'x-hub-signature-256': 'sha256=00', 'x-gitlab-token': secret };
    expect(verifyWebhookSignature(headers, body, secret)).toBe(false);
  });
});

// Trimmed but faithful shapes of each host's push and ping deliveries.
const githubPush = {
  ref: 'refs/heads/main',
  before: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
  after: '59b20b8d5c6ff8d09518454d4dd8b7a30f095ab5',
  created: false,
  deleted: false,
  forced: false,
  base_ref: null,
  compare: 'https://github.com/acme/docs/compare/6113728f27ae...59b20b8d5c6f',
  commits: [
    {
      id: '59b20b8d5c6ff8d09518454d4dd8b7a30f095ab5',
      message: 'Update guide',
      added: [],
      removed: [],
      modified: ['guide.md'],
    },
  ],
  head_commit: { id: '59b20b8d5c6ff8d09518454d4dd8b7a30f095ab5' },
  repository: { id: 1, full_name: 'acme/docs', default_branch: 'main' },
  pusher: { name: 'octocat', email: 'octocat@github.com' },
  sender: { login: 'octocat' },
};
const gitlabPush = {
  object_kind: 'push',
  event_name: 'push',
  before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
  after: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
  ref: 'refs/heads/docs',
  ref_protected: true,
  checkout_sha: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
  user_name: 'John Smith',
  project_id: 15,
  project: { id: 15, path_with_namespace: 'mike/diaspora', default_branch: 'master' },
  commits: [
    { id: 'b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327' },
    { id: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7' },
  ],
  total_commits_count: 25,
  repository: { name: 'Diaspora', homepage: 'http://example.com/mike/diaspora' },
};
const giteaPush = {
  ref: 'refs/heads/develop',
  before: '28e1879d029cb852e4844d9c718537df08844e03',
  after: 'bffeb74224043ba2feb48d137756c8a9331c449a',
  compare_url: 'http://localhost:3000/gitea/webhooks/compare/28e1879d...bffeb742',
  commits: [{ id: 'bffeb74224043ba2feb48d137756c8a9331c449a', message: 'Webhooks Yay!' }],
  total_commits: 1,
  repository: { id: 140, full_name: 'gitea/webhooks', default_branch: 'master' },
  pusher: { login: 'gitea' },
  sender: { login: 'gitea' },
};

describe('parsePushPayload', () => {
  it('reads a GitHub push and treats ping as no push', () => {
    expect(parsePushPayload({ 'x-github-event': 'push' }, githubPush)).toEqual({
      host: 'github',
      branch: 'main',
      commits: 1,
      isPush: true,
      deleted: false,
    });
    const ping = parsePushPayload(
      { 'X-GitHub-Event': 'ping' },
      { zen: 'Keep it simple.', hook_id: 1, hook: {} },
    );
    expect(ping).toMatchObject({ host: 'github', isPush: false, branch: null, commits: 0 });
  });

  it('reads a GitLab push hook, using total_commits_count', () => {
    expect(parsePushPayload({ 'x-gitlab-event': 'Push Hook' }, gitlabPush)).toEqual({
      host: 'gitlab',
      branch: 'docs',
      commits: 25,
      isPush: true,
      deleted: false,
    });
    const tag = parsePushPayload(
      { 'x-gitlab-event': 'Tag Push Hook' },
      { ...gitlabPush, object_kind: 'tag_push', ref: 'refs/tags/v1' },
    );
    expect(tag).toMatchObject({ isPush: true, branch: null });
    expect(parsePushPayload({ 'x-gitlab-event': 'Note Hook' }, { object_kind: 'note' })).toMatchObject({
      host: 'gitlab',
      isPush: false,
    });
  });

  it('reads Gitea and Forgejo pushes although they also send X-GitHub-Event', () => {
    const headers = { 'x-gitea-event': 'push', 'x-github-event': 'push', 'x-gogs-event': 'push' };
    expect(parsePushPayload(headers, giteaPush)).toEqual({
      host: 'gitea',
      branch: 'develop',
      commits: 1,
      isPush: true,
      deleted: false,
    });
    expect(
      parsePushPayload({ 'x-forgejo-event': 'push' }, Buffer.from(JSON.stringify(giteaPush))),
    ).toMatchObject({
      host: 'gitea',
      branch: 'develop',
    });
    expect(parsePushPayload({ 'x-gitea-event': 'create' }, giteaPush)).toMatchObject({
      isPush: false,
      branch: null,
    });
  });

  it('handles branch deletion, form-encoded bodies and garbage', () => {
    const del = {
      ...githubPush,
      deleted: true,
      after: '0000000000000000000000000000000000000000',
      commits: [],
    };
    expect(parsePushPayload({ 'x-github-event': 'push' }, del)).toMatchObject({
      deleted: true,
      branch: 'main',
    });
    const form = `payload=${encodeURIComponent(JSON.stringify(githubPush))}`;
    expect(parsePushPayload({ 'x-github-event': 'push' }, form)).toMatchObject({
      branch: 'main',
      isPush: true,
    });
    expect(parsePushPayload({ 'x-github-event': 'push' }, '{not json')).toMatchObject({
      branch: null,
      commits: 0,
    });
    expect(parsePushPayload({}, gitlabPush)).toMatchObject({ host: 'gitlab', isPush: true, branch: 'docs' });
    expect(parsePushPayload({}, null)).toMatchObject({ isPush: false, branch: null });
  });
});
