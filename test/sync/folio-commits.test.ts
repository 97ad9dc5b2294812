/**
 * What Folio itself writes into a workspace's tree is committed, by Folio, as it writes
 * it: the starter workspace made at registration and a new workspace's `.gitignore`.
 * No restart needed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { databaseTargets } from '../helpers/databases.js';
import { firstWorkspace } from '../helpers/users.js';
import { commitsWithFiles, type SyncEnv, startSync, treeOf } from './sync-helpers.js';

const sqlite = databaseTargets().find((t) => t.name === 'sqlite')!;
const status = async (tree: string) => (await runGit(tree, ['status', '--porcelain'])).stdout.trim();

describe('changes Folio makes to a tree are committed as it makes them', () => {
  let env: SyncEnv;
  afterEach(() => env?.cleanup());

  it('commits the starter workspace at registration and a new workspace when it is created', async () => {
    env = await startSync(sqlite);
    const starter = await firstWorkspace(env.server, env.owner);
    const tree = treeOf(env, starter.id);
    expect(await status(tree)).toBe('');
    expect(await commitsWithFiles(tree)).toEqual([
      { subject: 'docs: create Welcome to Folio', author: 'Folio', files: ['.gitignore', 'index.md'] },
    ]);

    const created = await env.server.request('POST', '/api/v1/workspaces', {
      token: env.owner.token,
      body: { name: 'Handbook', slug: 'handbook' },
    });
    expect(created.status).toBe(201);
    const other = treeOf(env, created.body.id);
    expect(await status(other)).toBe('');
    expect(await commitsWithFiles(other)).toEqual([
      { subject: 'docs: keep Folio metadata out of git', author: 'Folio', files: ['.gitignore'] },
    ]);
  });
});
