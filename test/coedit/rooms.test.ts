import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink, startCollab } from '../collab/collab-helpers.js';
import { YjsTestClient } from './yjs-client.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

describeEachDatabase('co-editing rooms ($name)', (target) => {
  let ctx: Awaited<ReturnType<typeof startCollab>>;
  let server: TestServer;
  let owner: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let commenter: TestUser;
  let outsider: TestUser;
  let ws: { id: string; slug: string };
  const open: YjsTestClient[] = [];
  let pageCount = 0;

  const join = async (user: TestUser, pagePath: string) => {
    const { client, joined } = await YjsTestClient.join(server, user, ws.slug, pagePath);
    open.push(client);
    return { client, joined };
  };
  const newPage = async (body: string) => {
    const pagePath = `coedit/page-${++pageCount}.md`;
    const res = await server.request('PUT', `/api/v1/content/${ws.slug}/${pagePath}`, {
      token: owner.token,
      body: { body, frontmatter: { title: `Page ${pageCount}` } },
    });
    expect(res.status).toBe(201);
    return pagePath;
  };
  const read = async (pagePath: string) =>
    (await server.request('GET', `/api/v1/content/${ws.slug}/${pagePath}`, { token: owner.token })).body;
  const fileText = (pagePath: string) =>
    readFile(path.join(server.dataDir, 'workspaces', ws.id, pagePath), 'utf8');

  beforeAll(async () => {
    ctx = await startCollab(target, {
      // Long enough that a second typist's edit, sent once the first one's arrived, joins
      // the same save on a busy machine (the Co-authored-by case needs both in one save).
      coedit: { debounceMs: 600, maxWaitMs: 2000 },
      gitCommitDebounceMs: 50,
    });
    server = ctx.server;
    owner = await registerUser(server, { name: 'Olive Owner' });
    editor = await registerUser(server, { name: 'Edith Editor' });
    viewer = await registerUser(server, { name: 'Vera Viewer' });
    commenter = await registerUser(server, { name: 'Cole Commenter' });
    outsider = await registerUser(server);
    ws = await firstWorkspace(server, owner);
    await joinWithLink(server, owner, ws.id, editor, 'editor');
    await joinWithLink(server, owner, ws.id, viewer, 'viewer');
    await joinWithLink(server, owner, ws.id, commenter, 'commenter');
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await ctx.cleanup();
  });

  it('seeds the room from the file; two writers typing at once converge and the file equals the text after the save', async () => {
    const pagePath = await newPage('# Plan\n\nFirst line.\n');
    const a = await join(owner, pagePath);
    const b = await join(editor, pagePath);
    expect(a.joined).toMatchObject({
      type: 'yjs-joined',
      workspace_id: ws.id,
      path: pagePath,
      writable: true,
    });
    expect(a.client.text).toBe('# Plan\n\nFirst line.\n');
    expect(b.joined.epoch).toBe(a.joined.epoch);

    for (let i = 0; i < 20; i++) {
      a.client.insert(a.client.text.indexOf('First'), `a${i} `);
      b.client.insert(b.client.text.length, `b${i}\n`);
    }
    await eventually(async () => a.client.text === b.client.text && a.client.text.includes('b19'));
    const text = a.client.text;
    expect(text.match(/a\d+ /g)).toHaveLength(20);
    expect(text.match(/b\d+\n/g)).toHaveLength(20);
    await eventually(async () => (await read(pagePath)).content === text);
    expect(await fileText(pagePath)).toContain(text);
    // The save is announced to the room with the stored hash.
    await a.client.ws.waitFor((m) => m.type === 'yjs-saved' && m.saved_text === text);
  });

  it('commits the room’s save as the first typist with a Co-authored-by trailer for the others', async () => {
    const pagePath = await newPage('Shared.\n');
    const a = await join(owner, pagePath);
    const b = await join(editor, pagePath);
    a.client.insert(0, 'Olive was here. ');
    await eventually(async () => b.client.text.startsWith('Olive'));
    b.client.insert(b.client.text.length, 'Edith too.\n');
    await eventually(async () => (await read(pagePath)).content.includes('Edith too.'));
    const tree = path.join(server.dataDir, 'workspaces', ws.id);
    const log = await eventually(async () => {
      const out = (await runGit(tree, ['log', '-1', '--format=%an%n%B', '--', pagePath])).stdout;
      return out.includes('Co-authored-by') ? out : null;
    });
    expect(log.split('\n')[0]).toBe('Olive Owner');
    expect(log).toContain(`Co-authored-by: Edith Editor <${editor.email}>`);
  });

  it('keeps the file’s CRLF line breaks: lines typed in the room are written with CRLF', async () => {
    const pagePath = await newPage('one\r\ntwo\r\n');
    const a = await join(owner, pagePath);
    expect(a.client.text).toBe('one\ntwo\n');
    a.client.insert(a.client.text.length, 'three\n');
    await eventually(async () => (await read(pagePath)).content === 'one\r\ntwo\r\nthree\r\n');
  });

  it('writes nothing when the text ends as it was saved', async () => {
    const pagePath = await newPage('Stable.\n');
    const before = await read(pagePath);
    const a = await join(owner, pagePath);
    a.client.insert(0, 'x');
    a.client.delete(0, 1);
    a.client.leave();
    await a.client.ws.roundTrip();
    // A marker save on another page proves the rooms ran their saves meanwhile.
    const other = await newPage('Other.\n');
    const b = await join(owner, other);
    b.client.insert(0, 'y');
    await eventually(async () => (await read(other)).content === 'yOther.\n');
    const after = await read(pagePath);
    expect(after.content_hash).toBe(before.content_hash);
    expect(after.updated_at).toBe(before.updated_at);
  });

  it('lets viewers and commenters follow but drops their updates and tells them why', async () => {
    const pagePath = await newPage('Read me.\n');
    const w = await join(owner, pagePath);
    for (const user of [viewer, commenter]) {
      const r = await join(user, pagePath);
      expect(r.joined).toMatchObject({ type: 'yjs-joined', writable: false });
      r.client.insert(0, 'HACKED ');
      const error = await r.client.ws.waitFor((m) => m.type === 'error');
      expect(error).toMatchObject({ error: 'FORBIDDEN', path: pagePath });
      expect(error.message).toMatch(/cannot change/);
      // They still receive what writers type.
      w.client.insert(w.client.text.length, `${user.handle} sees this\n`);
      await eventually(async () => r.client.text.includes(`${user.handle} sees this`));
    }
    await eventually(async () => (await read(pagePath)).content.includes('sees this'));
    expect(w.client.text).not.toContain('HACKED');
    expect((await read(pagePath)).content).not.toContain('HACKED');
  });

  it('answers NOT_FOUND to a socket without access and to a page that does not exist', async () => {
    const pagePath = await newPage('Private.\n');
    const c = await YjsTestClient.connect(server, outsider);
    c.send({ type: 'yjs-join', workspace_id: ws.id, path: pagePath });
    expect(await c.waitFor((m) => m.type === 'error')).toMatchObject({ error: 'NOT_FOUND' });
    c.send({ type: 'yjs-update', workspace_id: ws.id, path: pagePath, update: 'AAA=' });
    await c.waitFor((m) => m.type === 'error' && m.error === 'VALIDATION_ERROR');
    await c.close();
    const d = await YjsTestClient.connect(server, owner);
    d.send({ type: 'yjs-join', workspace_id: ws.id, path: 'coedit/missing.md' });
    expect(await d.waitFor((m) => m.type === 'error')).toMatchObject({ error: 'NOT_FOUND' });
    d.send({ type: 'yjs-join', workspace_id: ws.id });
    expect(await d.waitFor((m) => m.type === 'error' && m.error === 'VALIDATION_ERROR')).toBeTruthy();
    await d.close();
  });
});

describe('co-editing turned off', () => {
  it('answers yjs-unavailable with FF_COEDIT=false, so the web app saves page by page', async () => {
    const { startServer } = await import('../helpers/server.js');
    const server = await startServer({ env: { FF_COEDIT: 'false' } });
    try {
      const user = await registerUser(server);
      const ws = await firstWorkspace(server, user);
      const c = await YjsTestClient.connect(server, user);
      c.send({ type: 'yjs-join', workspace_id: ws.id, path: 'index.md' });
      expect(await c.waitFor((m: any) => m.type === 'yjs-unavailable')).toMatchObject({ path: 'index.md' });
      await c.close();
    } finally {
      await server.close();
    }
  });
});
