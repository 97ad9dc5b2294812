/**
 * Group commit of saves over HTTP: saves that arrive while the workspace lock is held wait
 * together and are applied as one batch when it is free, each by the rules of a single save.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contentHash } from '../../src/domain/frontmatter.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import {
  type ContentServer,
  eventually,
  fileIn,
  pageUrl,
  startOn,
  starterWorkspace,
} from './content-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

describeEachDatabase('saves to one workspace applied as one batch ($name)', (target) => {
  let ctx: ContentServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };
  beforeAll(async () => {
    ctx = await startOn(target);
    owner = await registerUser(ctx.server);
    ws = await starterWorkspace(ctx.server, owner);
  });
  afterAll(() => ctx?.cleanup());

  const send = (method: string, p: string, body: unknown) =>
    ctx.server.request(method, pageUrl(ws.slug, p), { token: owner.token, body });
  const read = async (p: string) =>
    (await ctx.server.request('GET', pageUrl(ws.slug, p), { token: owner.token })).body;

  /** Holds the workspace lock until `release` is called, as a batch being applied would. */
  async function holdLock(): Promise<{ release: () => Promise<void> }> {
    let free!: () => void;
    const held = new Promise<void>((resolve) => (free = resolve));
    let holding!: () => void;
    const acquired = new Promise<void>((resolve) => (holding = resolve));
    const done = ctx.server.folio.runtime.workspaceLock.run(ws.id, async () => {
      holding();
      await held;
    });
    await acquired;
    return {
      release: async () => {
        free();
        await done;
      },
    };
  }
  /** Sends a save and waits until it is queued for the next batch, so the batch keeps their order. */
  const queued: Array<Promise<any>> = [];
  async function enqueue(method: string, p: string, body: unknown): Promise<void> {
    const before = ctx.server.folio.services.pages.waitingSaves(ws.id);
    queued.push(send(method, p, body));
    await eventually(async () => ctx.server.folio.services.pages.waitingSaves(ws.id) === before + 1);
  }

  it('checks every save by its own rules, the later saves of a page against the earlier ones', async () => {
    const hashes = new Map<string, string>();
    const pages = [...Array.from({ length: 6 }, (_, i) => `a/p${i}.md`), 'b/q.md', 'shared.md'];
    for (const p of pages) {
      const created = await send('POST', p, { title: p, body: `first ${p}` });
      expect(created.status).toBe(201);
      hashes.set(p, created.body.content_hash);
    }
    fs.writeFileSync(fileIn(ctx.server, ws.id, 'blocker.md'), '# a file where a folder would go\n');

    const lock = await holdLock();
    queued.length = 0;
    for (const p of pages.slice(0, 7))
      await enqueue('PUT', p, { body: `zephyr${p.replace(/\W/g, '')}`, lastKnownHash: hashes.get(p) });
    // Three saves of one page: the second is based on the first, the third on the page before both.
    await enqueue('PUT', 'shared.md', { body: 'shared one', lastKnownHash: hashes.get('shared.md') });
    await enqueue('PUT', 'shared.md', { body: 'shared two', lastKnownHash: contentHash('shared one') });
    await enqueue('PUT', 'shared.md', { body: 'stale', lastKnownHash: hashes.get('shared.md') });
    // A page created twice (the second sees the first), and one a file is in the way of.
    await enqueue('PUT', 'fresh.md', { body: 'new page' });
    await enqueue('POST', 'fresh.md', { title: 'Again', body: 'again' });
    await enqueue('PUT', 'blocker.md/child.md', { body: 'cannot be written' });
    await lock.release();
    const answers = await Promise.all(queued);

    expect(answers.map((a) => a.status)).toEqual([...Array(7).fill(200), 200, 200, 409, 201, 409, 409]);
    for (const p of pages.slice(0, 7)) expect((await read(p)).content).toBe(`zephyr${p.replace(/\W/g, '')}`);
    expect(answers[8]!.body.content_hash).toBe(contentHash('shared two'));
    expect(answers[9]!.body.details).toMatchObject({
      current_hash: contentHash('shared two'),
      your_hash: hashes.get('shared.md'),
    });
    expect((await read('shared.md')).content).toBe('shared two');
    expect((await read('fresh.md')).content).toBe('new page');
    expect(answers[11]!.body.error).toBe('CONFLICT');
    expect(answers[12]!.body.error).toBe('CONFLICT');

    // Each applied save has its activity entry, in order; the search index has each page's last text.
    const activity = await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}/activity?limit=20`, {
      token: owner.token,
    });
    const shared = (activity.body.data as any[]).filter((e) => e.path === 'shared.md').slice(0, 2);
    expect(shared.map((e) => e.details)).toEqual([
      { previous_hash: contentHash('shared one'), content_hash: contentHash('shared two') },
      { previous_hash: hashes.get('shared.md'), content_hash: contentHash('shared one') },
    ]);
    const found = await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=zephyrap3md`, {
      token: owner.token,
    });
    expect(found.body.results.map((r: any) => r.path)).toEqual(['a/p3.md']);
    const two = await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=two`, {
      token: owner.token,
    });
    expect(two.body.results.map((r: any) => r.path)).toEqual(['shared.md']);
  });

  it('indexes the pages of a batch as a reader sees them, their plain text derived in the render workers', async () => {
    const lock = await holdLock();
    queued.length = 0;
    for (const n of [1, 2, 3])
      await enqueue('PUT', `plain/p${n}.md`, {
        body: `# Heading ${n}\n\n**Bold** words about the quokka${n} in [a link](other.md) and \`code\`.\n`,
      });
    await lock.release();
    expect((await Promise.all(queued)).map((a) => a.status)).toEqual([201, 201, 201]);

    // The workers share the batch's pages among them: each page keeps its own text.
    for (const n of [1, 2, 3]) {
      const found = await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=quokka${n}`, {
        token: owner.token,
      });
      expect(found.body.results.map((r: any) => r.path)).toEqual([`plain/p${n}.md`]);
      const snippet: string = found.body.results[0].snippet;
      expect(snippet).toContain(`<mark>quokka${n}</mark>`);
      expect(snippet).toContain('Bold words');
      expect(snippet).not.toMatch(/\*\*|\]\(|other\.md|`/);
    }
  });

  it('moves the saves past a batch’s byte budget to the next batch, keeping their order', async () => {
    const big = (n: number) => `${String(n).repeat(10)} ${'lorem ipsum '.repeat(17_000)}`;
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await send('POST', `big/p${i}.md`, { title: `Big ${i}`, body: 'small' });
      hashes.push(created.body.content_hash);
    }
    const lock = await holdLock();
    queued.length = 0;
    for (let i = 0; i < 3; i++)
      await enqueue('PUT', `big/p${i}.md`, { body: big(i), lastKnownHash: hashes[i] });
    await enqueue('PUT', 'big/p2.md', { body: 'after the big one', lastKnownHash: contentHash(big(2)) });
    await lock.release();
    const answers = await Promise.all(queued);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect((await read('big/p0.md')).content).toBe(big(0));
    expect((await read('big/p1.md')).content).toBe(big(1));
    expect((await read('big/p2.md')).content).toBe('after the big one');
  });

  it('reconciles a page changed on disk when a batch reaches it, and checks its save against the disk', async () => {
    const first = await send('POST', 'disk/one.md', { title: 'One', body: 'one' });
    const second = await send('POST', 'disk/two.md', { title: 'Two', body: 'two' });
    const file = fileIn(ctx.server, ws.id, 'disk/two.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('two', 'edited on disk'));
    const lock = await holdLock();
    queued.length = 0;
    await enqueue('PUT', 'disk/one.md', { body: 'one again', lastKnownHash: first.body.content_hash });
    await enqueue('PUT', 'disk/two.md', {
      body: 'from a stale read',
      lastKnownHash: second.body.content_hash,
    });
    await enqueue('PUT', 'disk/two.md', { body: 'two again', lastKnownHash: contentHash('edited on disk') });
    await lock.release();
    const answers = await Promise.all(queued);
    expect(answers.map((a) => a.status)).toEqual([200, 409, 200]);
    expect(answers[1]!.body.details.current_hash).toBe(contentHash('edited on disk'));
    expect((await read('disk/one.md')).content).toBe('one again');
    expect((await read('disk/two.md')).content).toBe('two again');
  });
});
