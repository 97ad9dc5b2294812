import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FolioEvent } from '../../src/events/types.js';
import { describeEachDatabase } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import {
  addMember,
  type ContentServer,
  fileIn,
  pageUrl,
  startOn,
  starterWorkspace,
} from './content-helpers.js';

const HASH = /^sha256:[0-9a-f]{64}$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describeEachDatabase('pages over HTTP ($name)', (target) => {
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

  const req = (method: string, pagePath: string, body?: unknown, token = owner.token) =>
    server.request(method, pageUrl(ws.slug, pagePath), { token, ...(body === undefined ? {} : { body }) });

  it('creates, reads, updates and deletes a page, with hashes changing exactly when content does', async () => {
    const created = await req('POST', 'guides/intro', {
      title: 'Intro',
      body: '# Intro\n\nHello.',
      description: 'The first guide',
      tags: ['start', 'guide'],
      publish: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      path: 'guides/intro.md',
      title: 'Intro',
      description: 'The first guide',
      content: '# Intro\n\nHello.',
      tags: ['start', 'guide'],
      status: 'published',
    });
    expect(created.body.page_id).toMatch(ULID);
    expect(created.body.content_hash).toMatch(HASH);
    expect(created.body.frontmatter_hash).toMatch(HASH);
    expect(Date.parse(created.body.created_at)).not.toBeNaN();

    // The file is the truth: frontmatter with the page id, then the body.
    const onDisk = fs.readFileSync(fileIn(server, ws.id, 'guides/intro.md'), 'utf8');
    expect(onDisk).toContain(`id: ${created.body.page_id}`);
    expect(onDisk).toContain('title: Intro');
    expect(onDisk.endsWith('# Intro\n\nHello.')).toBe(true);

    const read = await req('GET', 'guides/intro.md');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    // `.md` is optional in the URL.
    expect((await req('GET', 'guides/intro')).body.page_id).toBe(created.body.page_id);

    // Frontmatter only: content_hash stays, frontmatter_hash moves.
    const retitled = await req('PUT', 'guides/intro.md', {
      lastKnownHash: created.body.content_hash,
      frontmatter: { title: 'Introduction', tags: ['guide'] },
    });
    expect(retitled.status).toBe(200);
    expect(retitled.body.title).toBe('Introduction');
    expect(retitled.body.tags).toEqual(['guide']);
    expect(retitled.body.content).toBe('# Intro\n\nHello.');
    expect(retitled.body.content_hash).toBe(created.body.content_hash);
    expect(retitled.body.frontmatter_hash).not.toBe(created.body.frontmatter_hash);
    expect(retitled.body.page_id).toBe(created.body.page_id);

    // Body only: content_hash moves, frontmatter_hash stays.
    const edited = await req('PUT', 'guides/intro.md', {
      lastKnownHash: retitled.body.content_hash,
      body: 'New body',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.content).toBe('New body');
    expect(edited.body.content_hash).not.toBe(retitled.body.content_hash);
    expect(edited.body.frontmatter_hash).toBe(retitled.body.frontmatter_hash);
    expect(edited.body.updated_by).toBe(owner.id);

    // Saving the same content again changes neither hash.
    const same = await req('PUT', 'guides/intro.md', {
      lastKnownHash: edited.body.content_hash,
      body: 'New body',
    });
    expect(same.status).toBe(200);
    expect(same.body.content_hash).toBe(edited.body.content_hash);
    expect(same.body.frontmatter_hash).toBe(edited.body.frontmatter_hash);

    // Unpublish through frontmatter, and `null` removes a key.
    const drafted = await req('PUT', 'guides/intro.md', {
      lastKnownHash: edited.body.content_hash,
      frontmatter: { status: 'draft', description: null },
    });
    expect(drafted.body).toMatchObject({ status: 'draft', description: '' });

    const deleted = await req('DELETE', 'guides/intro.md');
    expect(deleted.status).toBe(204);
    expect(fs.existsSync(fileIn(server, ws.id, 'guides/intro.md'))).toBe(false);
    // The folder it leaves empty goes too, as in git.
    expect(fs.existsSync(fileIn(server, ws.id, 'guides'))).toBe(false);
    const gone = await req('GET', 'guides/intro.md');
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('NOT_FOUND');
    expect((await req('DELETE', 'guides/intro.md')).status).toBe(404);
  });

  it('follows the upsert pattern: POST, 409, GET, PUT with the hash', async () => {
    const first = await req('POST', 'upsert.md', { title: 'Upsert', body: 'one' });
    expect(first.status).toBe(201);
    const again = await req('POST', 'upsert.md', { title: 'Upsert', body: 'two' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'CONFLICT',
      details: { path: 'upsert.md', page_id: first.body.page_id },
    });
    const current = await req('GET', 'upsert.md');
    const put = await req('PUT', 'upsert.md', { body: 'two', lastKnownHash: current.body.content_hash });
    expect(put.status).toBe(200);
    expect(put.body.content).toBe('two');
    expect(put.body.page_id).toBe(first.body.page_id);
  });

  it('refuses a stale hash with 409 naming who changed the page and when', async () => {
    const page = await req('POST', 'stale.md', { title: 'Stale', body: 'v1' });
    const v2 = await req('PUT', 'stale.md', { body: 'v2', lastKnownHash: page.body.content_hash });
    const stale = await req('PUT', 'stale.md', { body: 'v3', lastKnownHash: page.body.content_hash });
    expect(stale.status).toBe(409);
    const expected = {
      current_hash: v2.body.content_hash,
      your_hash: page.body.content_hash,
      modified_by: owner.id,
      modified_at: v2.body.updated_at,
    };
    expect(stale.body).toMatchObject({ error: 'CONFLICT', ...expected, details: expected });
    expect(stale.body.request_id).toMatch(ULID);
    expect((await req('GET', 'stale.md')).body.content).toBe('v2');
  });

  it('keeps hand-written frontmatter byte for byte on a body-only save', async () => {
    const page = await req('POST', 'handmade.md', { title: 'Handmade', body: 'one' });
    const file = fileIn(server, ws.id, 'handmade.md');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('title: Handmade', 'title: Handmade # keep me\nzeta: last'),
    );
    const current = await req('GET', 'handmade.md');
    expect(current.body.content_hash).toBe(page.body.content_hash);
    const saved = await req('PUT', 'handmade.md', { body: 'two', lastKnownHash: current.body.content_hash });
    expect(saved.status).toBe(200);
    expect(fs.readFileSync(file, 'utf8')).toMatch(
      /title: Handmade # keep me\nzeta: last\nstatus: draft\n---\n\ntwo$/,
    );
    expect(saved.body.frontmatter_hash).toBe(current.body.frontmatter_hash);
  });

  it('lets exactly one of two concurrent PUTs with the same hash win', async () => {
    const page = await req('POST', 'race.md', { title: 'Race', body: 'start' });
    let hash = page.body.content_hash as string;
    for (let round = 0; round < 8; round++) {
      const [a, b] = await Promise.all([
        req('PUT', 'race.md', { body: `a${round}`, lastKnownHash: hash }),
        req('PUT', 'race.md', { body: `b${round}`, lastKnownHash: hash }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? a : b;
      const loser = a.status === 200 ? b : a;
      expect(loser.body.current_hash).toBe(winner.body.content_hash);
      const now = await req('GET', 'race.md');
      expect(now.body.content).toBe(winner.body.content);
      hash = now.body.content_hash;
    }
  });

  it('creates a missing page on PUT without lastKnownHash, and refuses updates without it', async () => {
    const created = await req('PUT', 'notes/getting-started.md', {
      body: 'hi',
      frontmatter: { tags: ['x'], custom: 7 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Getting started',
      tags: ['x'],
      status: 'draft',
      content: 'hi',
    });
    expect(fs.readFileSync(fileIn(server, ws.id, 'notes/getting-started.md'), 'utf8')).toContain('custom: 7');
    const noHash = await req('PUT', 'notes/getting-started.md', { body: 'again' });
    expect(noHash.status).toBe(400);
    expect(noHash.body.details.field).toBe('lastKnownHash');
    const missing = await req('PUT', 'notes/nothing-here.md', {
      body: 'x',
      lastKnownHash: created.body.content_hash,
    });
    expect(missing.status).toBe(404);
  });

  it('answers bad input with the API error body, never a 500', async () => {
    const noTitle = await req('POST', 'untitled.md', { body: 'x' });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'title' } });
    expect((await req('POST', 'untitled.md', { title: '   ' })).body.details.field).toBe('title');
    expect((await req('POST', 'untitled.md', { title: 'x', tags: 'nope' })).body.details.field).toBe('tags');
    expect((await req('POST', 'untitled.md')).status).toBe(400);
    const page = await req('POST', 'typed.md', { title: 'Typed' });
    const badStatus = await req('PUT', 'typed.md', {
      lastKnownHash: page.body.content_hash,
      frontmatter: { status: 'live' },
    });
    expect(badStatus.body.details.field).toBe('frontmatter.status');
    const newId = await req('PUT', 'typed.md', {
      lastKnownHash: page.body.content_hash,
      frontmatter: { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' },
    });
    expect(newId.status).toBe(400);
    expect(newId.body.details.field).toBe('frontmatter.id');
    const noTitleAnymore = await req('PUT', 'typed.md', {
      lastKnownHash: page.body.content_hash,
      frontmatter: { title: null },
    });
    expect(noTitleAnymore.body.details.field).toBe('frontmatter.title');
    expect((await req('GET', '')).status).toBe(400);
    const unknownWs = await server.request('GET', pageUrl('no-such-workspace', 'x.md'), {
      token: owner.token,
    });
    expect(unknownWs.status).toBe(404);
    expect((await server.request('GET', pageUrl(ws.slug, 'typed.md'))).status).toBe(401);
  });

  it('takes the body as content, as reads answer it, and refuses unknown fields by name', async () => {
    const created = await req('POST', 'aliased.md', { title: 'Y', content: 'hello' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.content).toBe('hello');
    expect((await req('GET', 'aliased.md')).body.content).toBe('hello');
    expect(fs.readFileSync(fileIn(server, ws.id, 'aliased.md'), 'utf8')).toMatch(/\nhello$/);

    const updated = await req('PUT', 'aliased.md', {
      content: 'hello again',
      lastKnownHash: created.body.content_hash,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.content).toBe('hello again');

    const both = await req('POST', 'both.md', { title: 'Y', body: 'one', content: 'two' });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'content' } });

    const misspelt = await req('POST', 'misspelt.md', { title: 'Y', bdy: 'hello' });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'bdy' } });
    expect(misspelt.body.message).toContain('bdy');
    expect(fs.existsSync(fileIn(server, ws.id, 'misspelt.md'))).toBe(false);

    const unknownOnPut = await req('PUT', 'aliased.md', {
      body: 'x',
      lastKnownHash: updated.body.content_hash,
      last_known_hash: updated.body.content_hash,
    });
    expect(unknownOnPut.status).toBe(400);
    expect(unknownOnPut.body.details.field).toBe('last_known_hash');
    expect((await req('GET', 'aliased.md')).body.content).toBe('hello again');
  });

  it('refuses frontmatter nested without bound with 400 and writes nothing', async () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 3000; i++) deep = { a: deep };
    const res = await req('PUT', 'deep.md', { body: 'x', frontmatter: { title: 'Deep', nested: deep } });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'frontmatter' } });
    expect(fs.existsSync(fileIn(server, ws.id, 'deep.md'))).toBe(false);

    let shallow: unknown = 'leaf';
    for (let i = 0; i < 5; i++) shallow = { a: shallow };
    const ok = await req('PUT', 'shallow.md', {
      body: 'x',
      frontmatter: { title: 'Shallow', nested: shallow },
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('emits page events with the documented payloads (and the commit author and title) after each change', async () => {
    const seen: FolioEvent[] = [];
    const off = server.folio.events.onAny((e) => {
      if ((e.payload as { workspace_id?: string }).workspace_id === ws.id) seen.push(e);
    });
    try {
      const page = await req('POST', 'evented.md', { title: 'Evented' });
      await req('PUT', 'evented.md', { body: 'changed', lastKnownHash: page.body.content_hash });
      await req('PATCH', 'evented.md', { new_path: 'evented-moved.md' });
      await req('DELETE', 'evented-moved.md');
      // A refused write emits nothing.
      await req('POST', 'evented-moved-2.md', { body: 'no title' });
    } finally {
      off();
    }
    const actor = owner.id;
    // The writer's commit identity and the page's title ride along for the git commit (WebSocket leaves them out).
    const author = { name: expect.any(String), email: owner.email };
    expect(seen.map((e) => ({ type: e.type, payload: e.payload }))).toEqual([
      {
        type: 'page-created',
        payload: { workspace_id: ws.id, path: 'evented.md', actor, title: 'Evented', author },
      },
      {
        type: 'page-updated',
        payload: { workspace_id: ws.id, path: 'evented.md', actor, title: 'Evented', author },
      },
      {
        type: 'page-moved',
        payload: { workspace_id: ws.id, old_path: 'evented.md', new_path: 'evented-moved.md', actor, author },
      },
      { type: 'page-deleted', payload: { workspace_id: ws.id, path: 'evented-moved.md', actor, author } },
    ]);
  });

  it('refuses a viewer with 403 on every write and an outsider with 404 on reads', async () => {
    const viewer = await registerUser(server);
    const editor = await registerUser(server);
    const outsider = await registerUser(server);
    await addMember(server, ws.id, viewer, 'viewer');
    await addMember(server, ws.id, editor, 'editor');
    const page = await req('POST', 'guarded.md', { title: 'Guarded', body: 'secret' });

    expect((await req('GET', 'guarded.md', undefined, viewer.token)).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', 'viewer-new.md', { title: 'No' }],
      ['PUT', 'guarded.md', { body: 'x', lastKnownHash: page.body.content_hash }],
      ['PATCH', 'guarded.md', { new_path: 'elsewhere.md' }],
      ['DELETE', 'guarded.md', undefined],
    ];
    for (const [method, p, body] of writes) {
      const res = await req(method, p, body, viewer.token);
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(res.body.error).toBe('FORBIDDEN');
    }
    const reorder = await server.request('POST', `/api/v1/content/${ws.slug}/reorder`, {
      token: viewer.token,
      body: { parent_path: '', order: [{ id: page.body.page_id, sort_order: 1 }] },
    });
    expect(reorder.status).toBe(403);

    for (const [method, p, body] of [['GET', 'guarded.md', undefined], ...writes] as Array<
      [string, string, unknown]
    >) {
      const res = await req(method, p, body, outsider.token);
      expect(res.status, `outsider ${method} ${p}`).toBe(404);
    }
    const tree = await server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token: outsider.token });
    expect(tree.status).toBe(404);

    // An editor may write; nothing the viewer tried happened.
    const edit = await req(
      'PUT',
      'guarded.md',
      { body: 'edited', lastKnownHash: page.body.content_hash },
      editor.token,
    );
    expect(edit.status).toBe(200);
    expect(edit.body.updated_by).toBe(editor.id);
    expect(fs.existsSync(fileIn(server, ws.id, 'viewer-new.md'))).toBe(false);
  });

  it('holds an API key to its scopes', async () => {
    const key = await server.request('POST', '/api/v1/api-keys', {
      token: owner.token,
      body: { name: 'reader', scopes: ['read'] },
    });
    expect(key.status).toBe(201);
    const page = await req('POST', 'scoped.md', { title: 'Scoped' });
    expect((await req('GET', 'scoped.md', undefined, key.body.key)).status).toBe(200);
    const put = await req(
      'PUT',
      'scoped.md',
      { body: 'x', lastKnownHash: page.body.content_hash },
      key.body.key,
    );
    expect(put.status).toBe(403);
  });
});
