import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { registerUser } from '../helpers/users.js';
import {
  type ContentServer,
  eventually,
  fileIn,
  pageUrl,
  startOn,
  starterWorkspace,
} from './content-helpers.js';

/** Settles with the request's answer, or with 'blocked' when it has not answered within `ms`. */
async function answeredWithin<T>(request: Promise<T>, ms: number): Promise<T | 'blocked'> {
  let timer: NodeJS.Timeout | undefined;
  const blocked = new Promise<'blocked'>((resolve) => {
    timer = setTimeout(() => resolve('blocked'), ms);
  });
  try {
    return await Promise.race([request, blocked]);
  } finally {
    clearTimeout(timer);
  }
}

describeEachDatabase('readers never wait on the write lock ($name)', (target: DatabaseTarget) => {
  let ctx: ContentServer;
  afterEach(() => ctx?.cleanup());

  it('serves a file the index has not caught up with while a writer holds the lock, then indexes it', async () => {
    ctx = await startOn(target);
    const owner = await registerUser(ctx.server);
    const ws = await starterWorkspace(ctx.server, owner);
    const get = (p: string) => ctx.server.request('GET', pageUrl(ws.slug, p), { token: owner.token });
    const created = await ctx.server.request('POST', pageUrl(ws.slug, 'guide.md'), {
      token: owner.token,
      body: { title: 'Guide', body: 'first words' },
    });
    expect(created.status).toBe(201);

    // A writer holds the workspace lock for as long as the test says.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const acquired = new Promise<void>((resolve) => (holding = resolve));
    const writer = ctx.server.folio.runtime.workspaceLock.run(ws.id, async () => {
      holding();
      await held;
    });
    await acquired;

    // Meanwhile the file changes and moves behind the index's back, as a write between its
    // rename and its index transaction (or a pull) leaves it.
    const file = (p: string) => fileIn(ctx.server, ws.id, p);
    const text = fs.readFileSync(file('guide.md'), 'utf8').replace('first words', 'second words');
    fs.mkdirSync(file('later'));
    fs.writeFileSync(file('later/guide.md'), text);
    fs.rmSync(file('guide.md'));

    const moved = await answeredWithin(get('later/guide.md'), 5_000);
    const gone = await answeredWithin(get('guide.md'), 5_000);
    const lockFree = {
      moved: moved === 'blocked' ? 'blocked' : moved.status,
      gone: gone === 'blocked' ? 'blocked' : gone.status,
    };
    release();
    await writer;
    expect(lockFree).toEqual({ moved: 200, gone: 404 });
    if (moved === 'blocked') return;
    expect(moved.body.page_id).toBe(created.body.page_id);
    expect(moved.body.content).toBe('second words');
    expect(moved.body.title).toBe('Guide');

    // Once the lock is free, the background reconciliation brings the index up to date.
    const search = await eventually(async () => {
      const found = await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=second`, {
        token: owner.token,
      });
      return found.body.results?.length > 0 ? found.body.results : undefined;
    });
    expect(search[0].path).toBe('later/guide.md');
    const tree = await ctx.server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: owner.token });
    expect(JSON.stringify(tree.body.tree)).not.toContain('"path":"guide.md"');
  });
});
