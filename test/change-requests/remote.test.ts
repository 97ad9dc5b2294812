import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { alice, cloneRepo, createBareRepo, fileUrl, pushClone } from '../helpers/git-fixtures.js';
import { eventually, fileAt, remoteWorkspace, type SyncEnv, startSync } from '../sync/sync-helpers.js';
import { caller, contentUrl, crUrl, editInRequest, openRequest } from './cr-helpers.js';

describeEachDatabase('change requests with a git remote ($name)', (target: DatabaseTarget) => {
  let env: SyncEnv;
  afterEach(async () => {
    await env?.cleanup();
  });

  it('pushes the request branch and recognises a merge made on the git host at the next sync', async () => {
    env = await startSync(target, { gitCommitDebounceMs: 0 });
    const as = caller(env, env.owner);
    const bare = await createBareRepo(env.tmp, 'docs');
    const ws = await remoteWorkspace(env, fileUrl(bare));
    const page = await as('POST', contentUrl(ws.slug, 'guide.md'), { title: 'Guide', body: 'first\n' });
    expect(page.status).toBe(201);
    await eventually(async () => fileAt(bare, 'guide.md'));

    await openRequest(env, env.owner, ws.id, 'Host review');
    await editInRequest(env, env.owner, ws.slug, 1, 'guide.md', 'first\nreviewed on the host\n');
    // The branch is on the remote, the live branch there is untouched.
    expect(await fileAt(bare, 'guide.md', 'folio/cr/1')).toContain('reviewed on the host');
    expect(await fileAt(bare, 'guide.md')).not.toContain('reviewed on the host');

    // Someone merges it on the git host.
    const clone = await cloneRepo(fileUrl(bare), path.join(env.tmp, 'clone'));
    await runGit(clone, ['merge', '-q', '--no-ff', '-m', 'Merge folio/cr/1', 'origin/folio/cr/1'], {
      env: {
        GIT_AUTHOR_NAME: alice.name,
        GIT_AUTHOR_EMAIL: alice.email,
        GIT_COMMITTER_NAME: alice.name,
        GIT_COMMITTER_EMAIL: alice.email,
      },
    });
    await pushClone(clone);
    expect((await as('GET', crUrl(ws.id, '/1'))).body.status).toBe('open');

    const sync = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.status).toBe(200);
    const merged = await eventually(async () => {
      const cr = await as('GET', crUrl(ws.id, '/1'));
      return cr.body.status === 'merged' ? cr.body : null;
    });
    expect(merged).toMatchObject({ merged_by: null });
    expect((await as('GET', contentUrl(ws.slug, 'guide.md'))).body.content).toContain('reviewed on the host');
    expect(env.events.some((e) => e.type === 'change-request-merged')).toBe(true);
    // Its local branch is cleaned away like a merge made in Folio.
    await eventually(async () => (await fileAt(bare, 'guide.md', 'folio/cr/1')) === null);

    // A merge made in Folio reaches the remote like any web edit; the branch leaves it.
    await openRequest(env, env.owner, ws.id, 'Merged in Folio');
    await editInRequest(
      env,
      env.owner,
      ws.slug,
      2,
      'guide.md',
      'first\nreviewed on the host\nand in Folio\n',
    );
    expect(await fileAt(bare, 'guide.md', 'folio/cr/2')).toContain('and in Folio');
    expect((await as('POST', crUrl(ws.id, '/2/merge'))).status).toBe(200);
    await eventually(async () => (await fileAt(bare, 'guide.md'))?.includes('and in Folio'));
    expect(await fileAt(bare, 'guide.md', 'folio/cr/2')).toBeNull();
  }, 120_000);
});
