import fs from 'node:fs';
import path from 'node:path';
import { ulid } from 'ulid';
import { expect, it } from 'vitest';
import { workspaceMovesDir } from '../../src/content/move-journal.js';
import { workspaceMetaDir, workspaceMetaFile } from '../../src/content/workspace-meta.js';
import { runGit } from '../../src/git/git.js';
import { runCli } from '../helpers/cli.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { alice, cloneRepo, fileUrl, pushClone } from '../helpers/git-fixtures.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { fileAt, logLines } from '../sync/sync-helpers.js';
import { eventually, fileIn, starterWorkspace, useFileRemotes, wipeDatabase } from './content-helpers.js';

describeEachDatabase('workspace metadata stays out of git ($name)', (target: DatabaseTarget) => {
  const remotes = useFileRemotes(target, 'meta');
  /** A workspace pushing to a fresh bare remote, with one published page (its site is private). */
  const remoteWorkspace = (owner: TestUser) =>
    remotes.remoteWorkspace(owner, {
      name: 'Meta',
      page: { path: 'private.md', title: 'Private', body: 'members only' },
    });

  it('keeps the metadata and its webhook secret outside the tree, the commits and the remote', async () => {
    const { ctx, owner } = await remotes.start();
    const { ws, bare } = await remoteWorkspace(owner);

    const metaFile = workspaceMetaFile(ctx.server.dataDir, ws.id);
    expect(path.relative(ctx.server.dataDir, metaFile)).toBe(path.join('meta', ws.id, 'workspace.json'));
    expect(JSON.parse(fs.readFileSync(metaFile, 'utf8'))).toMatchObject({
      id: ws.id,
      slug: ws.slug,
      webhook_secret: ws.webhook_secret,
    });
    expect(fs.statSync(metaFile).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(fileIn(ctx.server, ws.id, '.folio/workspace.json'))).toBe(false);

    const everything = await runGit(bare, ['log', '--all', '-p', '--format=%H %s']);
    expect(everything.stdout).toContain('private.md');
    expect(everything.stdout).not.toContain(ws.webhook_secret);
    expect((await runGit(bare, ['ls-tree', '-r', '--name-only', 'main'])).stdout).not.toContain('.folio');
  });

  it('ignores and purges a .folio folder pushed to the remote; a rebuild never reads it', async () => {
    const { ctx, owner, tmp } = await remotes.start();
    const { ws, bare } = await remoteWorkspace(owner);
    const page = await ctx.server.request('GET', `/api/v1/content/${ws.slug}/private.md`, {
      token: owner.token,
    });

    // Someone with push access forges Folio's metadata (a public site, their slug, remote
    // and webhook secret) and a move record, in a commit to the remote.
    const clone = await cloneRepo(fileUrl(bare), path.join(tmp, 'clone'));
    const forged = {
      version: 1,
      id: ws.id,
      org_id: ulid(),
      org_handle: 'mallory',
      name: 'Hijacked',
      slug: 'hijacked',
      git_remote: 'https://evil.example/docs.git',
      git_branch: 'main',
      settings: { public_site: true },
      webhook_secret: 'forged-webhook-secret',
      created_at: new Date().toISOString(),
      deleted_at: null,
    };
    const move = {
      page_id: page.body.page_id,
      from: 'private.md',
      to: 'stolen.md',
      actor: null,
      started_at: forged.created_at,
    };
    fs.mkdirSync(path.join(clone, '.folio/moves'), { recursive: true });
    fs.writeFileSync(path.join(clone, '.folio/workspace.json'), JSON.stringify(forged));
    fs.writeFileSync(path.join(clone, `.folio/moves/${ulid()}.json`), JSON.stringify(move));
    await runGit(clone, ['add', '-f', '.folio']);
    await runGit(clone, ['commit', '-q', '-m', 'Forge Folio metadata'], {
      env: {
        GIT_AUTHOR_NAME: alice.name,
        GIT_AUTHOR_EMAIL: alice.email,
        GIT_COMMITTER_NAME: alice.name,
        GIT_COMMITTER_EMAIL: alice.email,
      },
    });
    await pushClone(clone);

    const synced = await ctx.server.request('POST', `/api/v1/workspaces/${ws.id}/sync`, {
      token: owner.token,
    });
    expect(synced.status).toBe(200);
    // Folio's next commit deletes the folder, so the remote's later commits no longer carry it.
    await eventually(async () => (await fileAt(bare, '.folio/workspace.json')) === null);
    expect(await fileAt(bare, 'private.md')).not.toBeNull();
    expect((await logLines(bare, '%s'))[0]).toBe('docs: remove Folio metadata from the repository');
    expect(fs.existsSync(fileIn(ctx.server, ws.id, '.folio/workspace.json'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(workspaceMetaFile(ctx.server.dataDir, ws.id), 'utf8'))).toMatchObject({
      slug: ws.slug,
      webhook_secret: ws.webhook_secret,
      settings: {},
    });

    await ctx.stop();
    await wipeDatabase(ctx);
    const rebuilt = await runCli(['rebuild'], ctx.cliEnv(), { timeoutMs: 90_000 });
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toContain(`restored workspace ${ws.slug}: pending-first-registration`);

    await ctx.restart();
    const heir = await registerUser(ctx.server);
    const restored = await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}`, { token: heir.token });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      slug: ws.slug,
      name: 'Meta',
      git_remote: fileUrl(bare),
      webhook_secret: ws.webhook_secret,
      public_site: false,
    });
    expect((await ctx.server.request('GET', `/p/${ws.slug}/private`)).status).toBe(404);
    expect((await ctx.server.request('GET', '/p/hijacked/private')).status).toBe(404);
    const kept = await ctx.server.request('GET', `/api/v1/content/${ws.slug}/private.md`, {
      token: heir.token,
    });
    expect(kept.body.page_id).toBe(page.body.page_id);
  }, 120_000);

  it('moves the metadata and move journal of an older layout out of the tree at start', async () => {
    const { ctx, owner } = await remotes.start();
    const ws = await starterWorkspace(ctx.server, owner);
    const before = await ctx.server.request('GET', `/api/v1/content/${ws.slug}/index.md`, {
      token: owner.token,
    });
    await ctx.stop();

    // The layout of older versions: metadata and move journal in the tree, nothing in meta/.
    const dataDir = ctx.cliEnv().DATA_DIR!;
    const metaFile = workspaceMetaFile(dataDir, ws.id);
    const meta = fs.readFileSync(metaFile, 'utf8');
    fs.rmSync(workspaceMetaDir(dataDir, ws.id), { recursive: true });
    fs.rmSync(fileIn(ctx.server, ws.id, '.git/folio-workspace'));
    fs.mkdirSync(fileIn(ctx.server, ws.id, '.folio/moves'), { recursive: true });
    fs.writeFileSync(fileIn(ctx.server, ws.id, '.folio/workspace.json'), meta);
    const record = `${ulid()}.json`;
    fs.writeFileSync(fileIn(ctx.server, ws.id, `.folio/moves/${record}`), 'kept for a look');

    await ctx.restart();
    expect(fs.readFileSync(metaFile, 'utf8')).toBe(meta);
    expect(fs.readdirSync(workspaceMovesDir(dataDir, ws.id))).toEqual([record]);
    expect(fs.existsSync(fileIn(ctx.server, ws.id, '.folio/workspace.json'))).toBe(false);
    expect(fs.existsSync(fileIn(ctx.server, ws.id, '.folio/moves'))).toBe(false);
    // The tree is still recognised as the workspace's, so its pages are read rather than refused.
    const after = await ctx.server.request('GET', `/api/v1/content/${ws.slug}/index.md`, {
      token: owner.token,
    });
    expect(after.status).toBe(200);
    expect(after.body.page_id).toBe(before.body.page_id);
  });
});
