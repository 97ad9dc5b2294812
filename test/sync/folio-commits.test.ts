/**
 * What Folio itself writes into a workspace's tree is committed, by Folio, as it writes
 * it: the starter workspace made at registration, a new workspace's `.gitignore`, and
 * the page ids written into files found at start-up. No restart needed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { databaseTargets } from '../helpers/databases.js';
import { firstWorkspace } from '../helpers/users.js';
import { commitsWithFiles, eventually, type SyncEnv, startSync, treeOf, treeStatus } from './sync-helpers.js';

const sqlite = databaseTargets().find((t) => t.name === 'sqlite')!;

describe('changes Folio makes to a tree are committed as it makes them', () => {
  // One server for the file; the second test restarts it.
  let env: SyncEnv;
  beforeAll(async () => {
    env = await startSync(sqlite);
  });
  afterAll(() => env?.cleanup());

  it('commits the starter workspace at registration and a new workspace when it is created', async () => {
    const starter = await firstWorkspace(env.server, env.owner);
    const tree = treeOf(env, starter.id);
    expect(await treeStatus(tree)).toBe('');
    expect(await commitsWithFiles(tree)).toEqual([
      { subject: 'docs: create Welcome to Folio', author: 'Folio', files: ['.gitignore', 'index.md'] },
    ]);

    const created = await env.server.request('POST', '/api/v1/workspaces', {
      token: env.owner.token,
      body: { name: 'Handbook', slug: 'handbook' },
    });
    expect(created.status).toBe(201);
    const other = treeOf(env, created.body.id);
    expect(await treeStatus(other)).toBe('');
    expect(await commitsWithFiles(other)).toEqual([
      { subject: 'docs: keep Folio metadata out of git', author: 'Folio', files: ['.gitignore'] },
    ]);
  });

  it('commits the page ids start-up reconciliation writes into files found without one', async () => {
    const ws = await firstWorkspace(env.server, env.owner);
    const tree = treeOf(env, ws.id);
    await env.server.close();
    // Pages committed outside Folio while it was stopped, none with an id.
    const names = Array.from({ length: 30 }, (_, i) => `found/page-${String(i).padStart(2, '0')}.md`);
    fs.mkdirSync(path.join(tree, 'found'));
    for (const name of names) fs.writeFileSync(path.join(tree, name), `---\ntitle: ${name}\n---\n\nFound.\n`);
    await runGit(tree, ['add', '-A']);
    await runGit(tree, ['commit', '-q', '-m', 'Add pages'], {
      env: { GIT_AUTHOR_NAME: 'Tess Tree', GIT_AUTHOR_EMAIL: 'tess@example.com' },
    });

    await env.restart();
    await eventually(async () => (await treeStatus(tree)) === '');
    const [latest] = await commitsWithFiles(tree);
    expect(latest).toEqual({ subject: 'docs: assign page ids', author: 'Folio', files: names });
    // The id in each file is the page's id.
    const page = await env.server.request('GET', `/api/v1/content/${ws.slug}/${names[0]}`, {
      token: env.owner.token,
    });
    expect(page.status).toBe(200);
    expect(fs.readFileSync(path.join(tree, names[0]!), 'utf8')).toContain(`id: ${page.body.page_id}`);
  });
});
