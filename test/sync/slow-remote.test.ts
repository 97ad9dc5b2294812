import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { eventually, logLines, pageUrl, type SyncEnv, startSync, treeOf } from './sync-helpers.js';

/** A "git host" that accepts connections and never says a word. */
async function startSilentServer(): Promise<{ url: string; open: Set<Socket>; close(): Promise<void> }> {
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/docs.git`,
    open,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describeEachDatabase('a remote that never answers ($name)', (target) => {
  let env: SyncEnv;
  let silent: Awaited<ReturnType<typeof startSilentServer>> | undefined;
  afterEach(async () => {
    await silent?.close();
    silent = undefined;
    await env?.cleanup();
  });

  it('holds up no page write, and ends in sync_status error after GIT_NETWORK_TIMEOUT', async () => {
    env = await startSync(target, { env: { GIT_NETWORK_TIMEOUT: '5' } });
    silent = await startSilentServer();
    const as = (method: string, p: string, body?: unknown) =>
      env.server.request(method, p, { token: env.owner.token, body });
    const ws = (await as('GET', '/api/v1/workspaces')).body.data[0];
    // Connecting pulls from the new remote in the background: the fetch now hangs.
    expect(
      (await as('PUT', `/api/v1/workspaces/${ws.id}/git-remote`, { git_remote: silent.url })).status,
    ).toBe(200);
    await eventually(async () => silent!.open.size > 0);

    const created = await as('POST', pageUrl(ws.slug, 'while-fetching.md'), { title: 'While fetching' });
    expect(created.status).toBe(201);
    // The web edit is committed while git still waits on the silent remote.
    await eventually(async () =>
      (await logLines(treeOf(env, ws.id), '%s')).includes('docs: create While fetching'),
    );
    expect(silent.open.size).toBeGreaterThan(0);

    const failed = await eventually(async () => {
      const r = await as('GET', `/api/v1/workspaces/${ws.id}`);
      return r.body.sync_status === 'error' ? r.body : null;
    }, 60_000);
    expect(failed.last_error).toMatch(/did not answer in time: stopped after 5 s/);
  }, 120_000);
});
