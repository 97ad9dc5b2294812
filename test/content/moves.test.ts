import fs from 'node:fs';
import path from 'node:path';
import { ulid } from 'ulid';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { workspaceMovesDir } from '../../src/content/move-journal.js';
import { runGit } from '../../src/git/git.js';
import { runCli } from '../helpers/cli.js';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { type ContentServer, fileIn, pageUrl, startOn, starterWorkspace } from './content-helpers.js';

describeEachDatabase('moving pages ($name)', (target) => {
  let ctx: ContentServer;
  let server: TestServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    ctx = await startOn(target);
    server = ctx.server;
    owner = await registerUser(server);
    ws = await starterWorkspace(server, owner);
  });
  afterAll(() => ctx.cleanup());

  const req = (method: string, pagePath: string, body?: unknown) =>
    server.request(method, pageUrl(ws.slug, pagePath), {
      token: owner.token,
      ...(body === undefined ? {} : { body }),
    });
  const disk = (p: string) => fs.readFileSync(fileIn(server, ws.id, p), 'utf8');

  it('keeps page_id, rewrites links in the other pages and records the alias', async () => {
    const setup = await req('POST', 'guides/setup', {
      title: 'Setup',
      body: 'Back to [the FAQ](../faq.md) and [[guides/setup#top|this page]].',
    });
    await req('POST', 'faq', {
      title: 'FAQ',
      body: 'Read [[guides/setup]] and [[guides/setup.md#install|install]].',
    });
    await req('POST', 'reference/api', {
      title: 'API',
      body: 'See [setup](../guides/setup.md "Setup") and `[[guides/setup]]` in code.',
    });
    await req('POST', 'unrelated', { title: 'Unrelated', body: 'Nothing links here: [[faq]].' });
    // Frontmatter the author wrote by hand survives the rewrite byte for byte.
    const faqPath = fileIn(server, ws.id, 'faq.md');
    fs.writeFileSync(faqPath, disk('faq.md').replace('title: FAQ', 'title: FAQ # asked often'));
    const unrelatedBefore = disk('unrelated.md');

    const moved = await req('PATCH', 'guides/setup.md', { new_path: 'handbook/install/setup.md' });
    expect(moved.status).toBe(200);
    expect(moved.body.page_id).toBe(setup.body.page_id);
    expect(moved.body.path).toBe('handbook/install/setup.md');
    // Its own relative link is recomputed from the new folder; the self-link follows the move.
    expect(moved.body.content).toBe(
      'Back to [the FAQ](../../faq.md) and [[handbook/install/setup#top|this page]].',
    );

    const faq = await req('GET', 'faq.md');
    expect(faq.body.content).toBe(
      'Read [[handbook/install/setup]] and [[handbook/install/setup.md#install|install]].',
    );
    expect(disk('faq.md')).toContain('title: FAQ # asked often');
    const api = await req('GET', 'reference/api.md');
    expect(api.body.content).toBe(
      'See [setup](../handbook/install/setup.md "Setup") and `[[guides/setup]]` in code.',
    );
    expect(disk('unrelated.md')).toBe(unrelatedBefore);

    // Files: gone from the old place (with its empty folder), present at the new one.
    expect(fs.existsSync(fileIn(server, ws.id, 'guides'))).toBe(false);
    expect(disk('handbook/install/setup.md')).toContain(`id: ${setup.body.page_id}`);

    // The old path answers 404 and says where the page went; the alias is recorded.
    const old = await req('GET', 'guides/setup.md');
    expect(old.status).toBe(404);
    expect(old.body.details).toEqual({ moved_to: 'handbook/install/setup.md' });
    const alias = await server.folio.store.db
      .selectFrom('page_aliases')
      .selectAll()
      .where('workspace_id', '=', ws.id)
      .execute();
    expect(alias).toEqual([
      expect.objectContaining({ old_path: 'guides/setup.md', page_id: setup.body.page_id }),
    ]);

    // Hashes of rewritten pages are those of their new bodies, so a PUT with them succeeds.
    const put = await req('PUT', 'faq.md', { body: 'fresh', lastKnownHash: faq.body.content_hash });
    expect(put.status).toBe(200);

    const activity = await server.request('GET', `/api/v1/workspaces/${ws.id}/activity?action=page_moved`, {
      token: owner.token,
    });
    expect(activity.body.data[0]).toMatchObject({
      action: 'page_moved',
      path: 'handbook/install/setup.md',
      page_id: setup.body.page_id,
      actor: owner.id,
      details: {
        old_path: 'guides/setup.md',
        new_path: 'handbook/install/setup.md',
        links_rewritten: ['faq.md', 'reference/api.md'],
      },
    });
  });

  it('moves through the POST …/move alias, and moving back retires the alias', async () => {
    const page = await req('POST', 'alias/a.md', { title: 'A' });
    const res = await server.request('POST', `/api/v1/content/${ws.slug}/move`, {
      token: owner.token,
      body: { path: 'alias/a.md', new_path: 'alias/b.md' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page_id: page.body.page_id, path: 'alias/b.md' });
    const back = await req('PATCH', 'alias/b.md', { new_path: 'alias/a.md' });
    expect(back.body.path).toBe('alias/a.md');
    expect((await req('GET', 'alias/a.md')).body.page_id).toBe(page.body.page_id);
    expect((await req('GET', 'alias/b.md')).body.details).toEqual({ moved_to: 'alias/a.md' });
  });

  it('refuses a move onto an existing page (409), of a missing page (404) and without new_path (400)', async () => {
    await req('POST', 'taken/one.md', { title: 'One', body: 'one' });
    await req('POST', 'taken/two.md', { title: 'Two', body: 'two' });
    const clash = await req('PATCH', 'taken/one.md', { new_path: 'taken/two.md' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('CONFLICT');
    expect((await req('GET', 'taken/two.md')).body.content).toBe('two');
    expect((await req('GET', 'taken/one.md')).body.content).toBe('one');
    expect((await req('PATCH', 'taken/none.md', { new_path: 'taken/three.md' })).status).toBe(404);
    const noTarget = await req('PATCH', 'taken/one.md', {});
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.details.field).toBe('new_path');
    // Moving to where it already is changes nothing.
    const same = await req('PATCH', 'taken/one.md', { new_path: 'taken/one' });
    expect(same.status).toBe(200);
    expect(same.body.path).toBe('taken/one.md');
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

// Each crash is staged with the server stopped, as movePage would have left the files, and the
// next start (or `folio rebuild`) must finish the move as if it had never been interrupted.
describeEachDatabase('finishing a move a crash interrupted ($name)', (target) => {
  let ctx: ContentServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    ctx = await startOn(target);
    owner = await registerUser(ctx.server);
    ws = await starterWorkspace(ctx.server, owner);
  });
  afterAll(() => ctx.cleanup());

  const req = (method: string, pagePath: string, body?: unknown) =>
    ctx.server.request(method, pageUrl(ws.slug, pagePath), {
      token: owner.token,
      ...(body === undefined ? {} : { body }),
    });
  const file = (p: string) => fileIn(ctx.server, ws.id, p);
  const disk = (p: string) => fs.readFileSync(file(p), 'utf8');
  const writeDisk = (p: string, text: string) => {
    fs.mkdirSync(path.dirname(file(p)), { recursive: true });
    fs.writeFileSync(file(p), text);
  };
  const movesDir = () => workspaceMovesDir(ctx.server.dataDir, ws.id);
  const journal = () => (fs.existsSync(movesDir()) ? fs.readdirSync(movesDir()) : []);
  const writeJournal = (name: string, text: string) => {
    fs.mkdirSync(movesDir(), { recursive: true });
    fs.writeFileSync(path.join(movesDir(), name), text);
  };
  /** The record movePage writes before it touches a file. */
  const writeRecord = (pageId: string, from: string, to: string) => {
    const record = { page_id: pageId, from, to, actor: owner.id, started_at: new Date().toISOString() };
    writeJournal(`${ulid()}.json`, JSON.stringify(record));
  };
  const activity = async (action: string) => {
    const res = await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}/activity?action=${action}`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    return res.body.data as any[];
  };
  const movesOf = async (pageId: string) =>
    (await activity('page_moved')).filter((a) => a.page_id === pageId);

  it('finishes a move that wrote the new file but kept the old one and rewrote no link', async () => {
    const guide = await req('POST', 'crash1/guide', {
      title: 'Guide',
      body: 'See [the FAQ](faq.md) and [[crash1/faq]].',
    });
    await req('POST', 'crash1/faq', { title: 'FAQ', body: 'Read [the guide](guide.md).' });
    await req('POST', 'crash1-links', {
      title: 'Links',
      body: 'Start at [[crash1/guide]] or [here](crash1/guide.md#intro).',
    });
    await ctx.stop();
    writeRecord(guide.body.page_id, 'crash1/guide.md', 'crash1/docs/guide.md');
    writeDisk('crash1/docs/guide.md', disk('crash1/guide.md').replace('](faq.md)', '](../faq.md)'));
    await ctx.restart();

    const moved = await req('GET', 'crash1/docs/guide.md');
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      page_id: guide.body.page_id,
      path: 'crash1/docs/guide.md',
      content: 'See [the FAQ](../faq.md) and [[crash1/faq]].',
    });
    const old = await req('GET', 'crash1/guide.md');
    expect(old.status).toBe(404);
    expect(old.body.details).toEqual({ moved_to: 'crash1/docs/guide.md' });
    expect(fs.existsSync(file('crash1/guide.md'))).toBe(false);

    const faq = await req('GET', 'crash1/faq.md');
    expect(faq.body.content).toBe('Read [the guide](docs/guide.md).');
    expect((await req('GET', 'crash1-links.md')).body.content).toBe(
      'Start at [[crash1/docs/guide]] or [here](crash1/docs/guide.md#intro).',
    );
    expect(journal()).toEqual([]);
    expect(await movesOf(guide.body.page_id)).toEqual([
      expect.objectContaining({
        path: 'crash1/docs/guide.md',
        actor: owner.id,
        details: expect.objectContaining({
          old_path: 'crash1/guide.md',
          new_path: 'crash1/docs/guide.md',
          links_rewritten: ['crash1-links.md', 'crash1/faq.md'],
        }),
      }),
    ]);
    // The index holds the rewritten bodies: a write with their hashes is accepted.
    const put = await req('PUT', 'crash1/faq.md', { body: 'fresh', lastKnownHash: faq.body.content_hash });
    expect(put.status).toBe(200);
  });

  it('finishes a move that removed the old file and rewrote one of two linking pages', async () => {
    const manual = await req('POST', 'crash2/manual', { title: 'Manual', body: 'The manual.' });
    await req('POST', 'crash2/early', { title: 'Early', body: 'Read [[crash2/manual]].' });
    await req('POST', 'crash2/late', { title: 'Late', body: 'Read [the manual](manual.md).' });
    await ctx.stop();
    writeRecord(manual.body.page_id, 'crash2/manual.md', 'crash2/ref/manual.md');
    writeDisk('crash2/ref/manual.md', disk('crash2/manual.md'));
    fs.rmSync(file('crash2/manual.md'));
    writeDisk(
      'crash2/early.md',
      disk('crash2/early.md').replace('[[crash2/manual]]', '[[crash2/ref/manual]]'),
    );
    await ctx.restart();

    const moved = await req('GET', 'crash2/ref/manual.md');
    expect(moved.body).toMatchObject({ page_id: manual.body.page_id, content: 'The manual.' });
    expect((await req('GET', 'crash2/manual.md')).body.details).toEqual({ moved_to: 'crash2/ref/manual.md' });
    const early = await req('GET', 'crash2/early.md');
    expect(early.body.content).toBe('Read [[crash2/ref/manual]].');
    expect((await req('GET', 'crash2/late.md')).body.content).toBe('Read [the manual](ref/manual.md).');
    expect(journal()).toEqual([]);
    // The page rewritten before the crash counts as the move's, not as an edit found on disk.
    expect((await movesOf(manual.body.page_id))[0]).toMatchObject({
      actor: owner.id,
      details: { old_path: 'crash2/manual.md', links_rewritten: ['crash2/early.md', 'crash2/late.md'] },
    });
    expect((await activity('page_updated')).filter((a) => a.path === 'crash2/early.md')).toEqual([]);
    const put = await req('PUT', 'crash2/early.md', {
      body: 'fresh',
      lastKnownHash: early.body.content_hash,
    });
    expect(put.status).toBe(200);
  });

  it('finishes a move at once when its index transaction fails midway, and answers 200', async () => {
    const guide = await req('POST', 'midway/guide', { title: 'Guide', body: 'The guide.' });
    await req('POST', 'midway/intro', { title: 'Intro', body: 'Next: [[midway/guide]].' });
    const events: string[] = [];
    const off = ctx.server.folio.events.onAny((e) => events.push(e.type));
    // The first search-index write of the move's transaction fails, as a full disk would make it.
    const upsert = vi
      .spyOn(ctx.server.folio.runtime.searchIndex, 'upsert')
      .mockRejectedValueOnce(new Error('database or disk is full'));
    try {
      const moved = await req('PATCH', 'midway/guide.md', { new_path: 'midway/done/guide.md' });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({
        page_id: guide.body.page_id,
        path: 'midway/done/guide.md',
        content: 'The guide.',
      });
      expect(upsert.mock.calls.length).toBeGreaterThan(1);
    } finally {
      upsert.mockRestore();
      off();
    }
    // Files and index agree straight away, with no record left for the next start.
    expect(journal()).toEqual([]);
    expect(fs.existsSync(file('midway/guide.md'))).toBe(false);
    expect((await req('GET', 'midway/intro.md')).body.content).toBe('Next: [[midway/done/guide]].');
    expect((await req('GET', 'midway/guide.md')).body.details).toEqual({ moved_to: 'midway/done/guide.md' });
    expect(await movesOf(guide.body.page_id)).toHaveLength(1);
    expect(events).toContain('page-moved');
    const search = await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=guide`, {
      token: owner.token,
    });
    expect(search.body.results.map((r: any) => r.path)).toContain('midway/done/guide.md');
  });

  it('answers the error and keeps the record when finishing the move fails too', async () => {
    const stuck = await req('POST', 'midway2/stuck', { title: 'Stuck', body: 'Stuck.' });
    const upsert = vi
      .spyOn(ctx.server.folio.runtime.searchIndex, 'upsert')
      .mockRejectedValue(new Error('database or disk is full'));
    try {
      const moved = await req('PATCH', 'midway2/stuck.md', { new_path: 'midway2/later/stuck.md' });
      expect(moved.status).toBe(500);
      expect(moved.body.error).toBe('INTERNAL_ERROR');
      expect(JSON.stringify(moved.body)).not.toContain('disk is full');
      expect(journal()).toHaveLength(1);
    } finally {
      upsert.mockRestore();
    }
    // The next start finishes it, as after a crash.
    await ctx.stop();
    await ctx.restart();
    expect(journal()).toEqual([]);
    expect((await req('GET', 'midway2/later/stuck.md')).body.page_id).toBe(stuck.body.page_id);
  });

  it('drops the record of a move that crashed before it changed a file', async () => {
    const stay = await req('POST', 'crash3/stay', { title: 'Stay', body: 'Staying.' });
    await req('POST', 'crash3/pointer', { title: 'Pointer', body: 'See [[crash3/stay]].' });
    const pointer = disk('crash3/pointer.md');
    await ctx.stop();
    writeRecord(stay.body.page_id, 'crash3/stay.md', 'crash3/gone/stay.md');
    await ctx.restart();

    expect((await req('GET', 'crash3/stay.md')).body).toMatchObject({
      page_id: stay.body.page_id,
      content: 'Staying.',
    });
    const target = await req('GET', 'crash3/gone/stay.md');
    expect(target.status).toBe(404);
    expect(target.body.details).toBeUndefined();
    expect(disk('crash3/pointer.md')).toBe(pointer);
    expect(fs.existsSync(file('crash3/gone'))).toBe(false);
    expect(journal()).toEqual([]);
    expect(await movesOf(stay.body.page_id)).toEqual([]);
  });

  it('has `folio rebuild` finish a pending move before it rebuilds', async () => {
    const page = await req('POST', 'crash4/page', { title: 'Page', body: 'A page.' });
    await req('POST', 'crash4/link', { title: 'Link', body: 'See [[crash4/page]].' });
    await ctx.stop();
    writeRecord(page.body.page_id, 'crash4/page.md', 'crash4/new/page.md');
    writeDisk('crash4/new/page.md', disk('crash4/page.md'));

    const res = await runCli(['rebuild', '--workspace', ws.slug], ctx.cliEnv());
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`finished 1 interrupted page moves in ${ws.slug}`);
    expect(journal()).toEqual([]);
    expect(fs.existsSync(file('crash4/page.md'))).toBe(false);
    expect(disk('crash4/link.md')).toContain('See [[crash4/new/page]].');

    await ctx.restart();
    expect((await req('GET', 'crash4/new/page.md')).body.page_id).toBe(page.body.page_id);
    expect((await req('GET', 'crash4/page.md')).body.details).toEqual({ moved_to: 'crash4/new/page.md' });
    expect(await movesOf(page.body.page_id)).toHaveLength(1);
  });

  it('leaves no record after a normal move, and keeps records out of the tree and of git', async () => {
    const page = await req('POST', 'plain/page', { title: 'Plain' });
    expect((await req('PATCH', 'plain/page.md', { new_path: 'plain/moved.md' })).status).toBe(200);
    expect(journal()).toEqual([]);
    // A move refused once its record is written (a file in the way of the new folder) drops it too.
    const blocked = await req('PATCH', 'plain/moved.md', { new_path: 'plain/moved.md/inside.md' });
    expect(blocked.status).toBe(409);
    expect(journal()).toEqual([]);

    // An unreadable record is kept for a look, across a start that commits leftovers with `git add -A`.
    await ctx.stop();
    const name = `${ulid()}.json`;
    writeJournal(name, 'not a record');
    await ctx.restart();
    expect(journal()).toEqual([name]);
    expect((await req('GET', 'plain/moved.md')).body.page_id).toBe(page.body.page_id);
    const tree = await ctx.server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: owner.token });
    expect(tree.status).toBe(200);
    expect(JSON.stringify(tree.body)).not.toContain('.folio');
    await ctx.stop(); // commits what is waiting

    const root = file('');
    const committed = await runGit(root, ['log', '--all', '--name-only', '--format=']);
    expect(committed.stdout).toContain('plain/moved.md');
    expect(committed.stdout).not.toContain('.folio');
    expect((await runGit(root, ['ls-files'])).stdout).not.toContain('.folio');
    expect((await runGit(root, ['status', '--porcelain'])).stdout).not.toContain('.folio');
    expect(fs.existsSync(file('.folio/moves'))).toBe(false);

    fs.rmSync(path.join(movesDir(), name));
    await ctx.restart();
  });
});
