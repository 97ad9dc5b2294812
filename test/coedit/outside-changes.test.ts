import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { bob, cloneRepo, commitFile, createBareRepo, fileUrl, pushClone } from '../helpers/git-fixtures.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { joinWithLink } from '../collab/collab-helpers.js';
import {
  eventually,
  fileAt,
  pageUrl,
  remoteWorkspace,
  type SyncEnv,
  startSync,
  treeOf,
} from '../sync/sync-helpers.js';
import { YjsTestClient } from './yjs-client.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

describeEachDatabase('co-editing with changes from outside the room ($name)', (target) => {
  let env: SyncEnv;
  let editor: TestUser;
  let ws: any;
  let bare: string;
  let clone: string;
  const open: YjsTestClient[] = [];
  let count = 0;

  const as = (method: string, p: string, body?: unknown) =>
    env.server.request(method, p, { token: env.owner.token, body });
  const read = async (pagePath: string) => (await as('GET', pageUrl(ws.slug, pagePath))).body;
  const newPage = async (body: string) => {
    const pagePath = `outside-${++count}.md`;
    expect((await as('POST', pageUrl(ws.slug, pagePath), { title: `Outside ${count}`, body })).status).toBe(
      201,
    );
    return pagePath;
  };
  const join = async (user: TestUser, pagePath: string) => {
    const { client, joined } = await YjsTestClient.join(env.server, user, ws.slug, pagePath);
    expect(joined.type).toBe('yjs-joined');
    open.push(client);
    return client;
  };
  /** Both writers type `rounds` words at the end of the page while `during` runs. */
  async function typeWhile(a: YjsTestClient, b: YjsTestClient, during: () => Promise<void>) {
    let stop = false;
    let i = 0;
    const typing = (async () => {
      while (!stop || i < 10) {
        a.insertEnd(`A${i} `);
        b.insertEnd(`B${i} `);
        i++;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await during();
    stop = true;
    await typing;
    return i;
  }

  beforeAll(async () => {
    env = await startSync(target, {
      coedit: { debounceMs: 1000, maxWaitMs: 4000 },
      gitCommitDebounceMs: 50,
    });
    editor = await registerUser(env.server, { name: 'Edith Editor' });
    bare = await createBareRepo(env.tmp, 'docs');
    ws = await remoteWorkspace(env, fileUrl(bare));
    await joinWithLink(env.server, env.owner, ws.id, editor, 'editor');
    clone = await cloneRepo(fileUrl(bare), path.join(env.tmp, 'clone'));
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await env.cleanup();
  });

  it('merges an API PUT landing while two people type, keeping everything both typed', async () => {
    const pagePath = await newPage('Title line\n\nMiddle.\n\n');
    const a = await join(env.owner, pagePath);
    const b = await join(editor, pagePath);
    let apiHash = '';
    const rounds = await typeWhile(a, b, async () => {
      const page = await read(pagePath);
      const put = await as('PUT', pageUrl(ws.slug, pagePath), {
        body: page.content.replace('Title line', 'Title line, edited by the API'),
        lastKnownHash: page.content_hash,
      });
      expect(put.status).toBe(200);
      apiHash = put.body.content_hash;
    });
    await eventually(
      async () =>
        a.text === b.text && a.text.includes('edited by the API') && a.text.includes(`B${rounds - 1} `),
    );
    // Each editor is told the file now holds the API's text, so it can show what is unsaved.
    for (const client of [a, b]) {
      const notice = await client.ws.waitFor((m) => m.type === 'yjs-saved' && m.content_hash === apiHash);
      expect(notice.saved_text).toContain('Title line, edited by the API');
    }
    for (let i = 0; i < rounds; i++) {
      expect(a.text).toContain(`A${i} `);
      expect(a.text).toContain(`B${i} `);
    }
    expect(a.text.match(/edited by the API/g)).toHaveLength(1);
    const final = a.text;
    await eventually(async () => (await read(pagePath)).content === final);
    expect(env.events.some((e) => e.type === 'conflict-detected')).toBe(false);
  });

  it('merges a git pull landing while two people type', async () => {
    const pagePath = await newPage('From git: original.\n\nTyping below.\n\n');
    await eventually(async () => fileAt(bare, pagePath));
    const a = await join(env.owner, pagePath);
    const b = await join(editor, pagePath);
    const rounds = await typeWhile(a, b, async () => {
      await runPull(pagePath, (text) => text.replace('From git: original.', 'From git: pulled.'));
    });
    await eventually(
      async () =>
        a.text === b.text && a.text.includes('From git: pulled.') && a.text.includes(`B${rounds - 1} `),
    );
    expect(a.text).not.toContain('original');
    for (let i = 0; i < rounds; i++) {
      expect(a.text).toContain(`A${i} `);
      expect(a.text).toContain(`B${i} `);
    }
    const final = a.text;
    await eventually(async () => (await read(pagePath)).content === final);
    expect(fs.readFileSync(path.join(treeOf(env, ws.id), pagePath), 'utf8')).toContain(final);
  });

  it('writers offline with unsaved text while a pull changes the page come back to the same room: every word once', async () => {
    const pagePath = await newPage('Intro.\n\nA:\nB:\n');
    await eventually(async () => fileAt(bare, pagePath));
    const a = await join(env.owner, pagePath);
    const b = await join(editor, pagePath);
    a.insert(a.text.indexOf('A:') + 2, ' a-online');
    b.insert(b.text.indexOf('B:') + 2, ' b-online');
    await eventually(
      async () => a.text === b.text && a.text.includes('a-online') && a.text.includes('b-online'),
    );
    const epoch = a.epoch;

    // Both lose their sockets: the room saves what it has and closes; they keep typing.
    const rooms = async () => (await env.server.folio.rooms!.stats()).rooms;
    const openRooms = await rooms();
    await Promise.all([a.close(), b.close()]);
    await eventually(async () => (await rooms()) === openRooms - 1);
    expect((await read(pagePath)).content).toBe('Intro.\n\nA: a-online\nB: b-online\n');
    await eventually(async () => (await fileAt(bare, pagePath))?.includes('b-online'));
    a.insert(a.text.indexOf('a-online') + 8, ' a-offline');
    b.insert(b.text.indexOf('b-online') + 8, ' b-offline');
    // Meanwhile the page changes through git, with no room open to merge it.
    await runPull(pagePath, (text) => text.replace('Intro.', 'Intro, pulled.'));
    await eventually(async () => (await read(pagePath)).content.startsWith('Intro, pulled.'));

    // Back: the room kept its history, so each hands over what it typed, merged once by Yjs.
    expect((await a.rejoin(env.server, env.owner, ws.slug)).epoch).toBe(epoch);
    expect((await b.rejoin(env.server, editor, ws.slug)).epoch).toBe(epoch);
    const expected = 'Intro, pulled.\n\nA: a-online a-offline\nB: b-online b-offline\n';
    await eventually(async () => a.text === expected && b.text === expected);
    await eventually(async () => (await read(pagePath)).content === expected);
    const file = fs.readFileSync(path.join(treeOf(env, ws.id), pagePath), 'utf8');
    expect(file.endsWith(`\n---\n\n${expected}`)).toBe(true);
    for (const word of ['pulled', 'a-online', 'a-offline', 'b-online', 'b-offline'])
      expect(file.split(word), word).toHaveLength(2);
    expect(env.events.some((e) => e.type === 'conflict-detected' && e.payload.path === pagePath)).toBe(false);
  });

  /** Commits a change to the page in the clone, pushes it and makes Folio pull. */
  async function runPull(pagePath: string, change: (text: string) => string) {
    await runGitPull();
    const text = fs.readFileSync(path.join(clone, pagePath), 'utf8');
    await commitFile(clone, pagePath, change(text), bob);
    await pushClone(clone);
    const sync = await as('POST', `/api/v1/workspaces/${ws.id}/sync`);
    expect(sync.status).toBe(200);
  }
  async function runGitPull() {
    const { runGit } = await import('../../src/git/git.js');
    await runGit(clone, ['pull', '-q', '--rebase', 'origin', 'main'], {});
  }

  it('keeps both sides of an overlapping outside change, raises conflict-detected and stops saving until resolved', async () => {
    const pagePath = await newPage('alpha\nbeta\ngamma\n');
    const a = await join(env.owner, pagePath);
    const watcher = await YjsTestClient.connect(env.server, editor);
    open.push({ close: () => watcher.close() } as YjsTestClient);
    expect((await watcher.subscribe(ws.id)).type).toBe('subscribed');
    a.replace('beta', 'beta typed in the room');
    await a.ws.roundTrip();
    const page = await read(pagePath);
    expect(page.content).toBe('alpha\nbeta\ngamma\n');
    const put = await as('PUT', pageUrl(ws.slug, pagePath), {
      body: 'alpha\nbeta from the API\ngamma\n',
      lastKnownHash: page.content_hash,
    });
    expect(put.status).toBe(200);
    await a.ws.waitFor((m) => m.type === 'yjs-conflict' && m.path === pagePath);
    await watcher.waitFor((m) => m.type === 'conflict-detected' && m.path === pagePath);
    // Both sides kept: the room still has the typed line, the file the API's.
    expect(a.text).toBe('alpha\nbeta typed in the room\ngamma\n');
    a.insertEnd('more\n');
    await a.ws.roundTrip();
    expect((await read(pagePath)).content).toBe('alpha\nbeta from the API\ngamma\n');
    // The writer settles it in the merge view: the room saves again.
    a.replace('beta typed in the room', 'beta, both merged');
    a.ws.send({ type: 'yjs-resolved', workspace_id: ws.id, path: pagePath });
    await eventually(
      async () => (await read(pagePath)).content === 'alpha\nbeta, both merged\ngamma\nmore\n',
    );
  });

  it('closes the room with a notice when the page is deleted or moved from outside', async () => {
    const deleted = await newPage('Soon gone.\n');
    const a = await join(env.owner, deleted);
    expect((await as('DELETE', pageUrl(ws.slug, deleted))).status).toBe(204);
    expect(await a.ws.waitFor((m) => m.type === 'yjs-closed')).toMatchObject({
      path: deleted,
      reason: 'page_deleted',
    });
    const moved = await newPage('Moving.\n');
    const b = await join(env.owner, moved);
    const res = await as('PATCH', pageUrl(ws.slug, moved), { new_path: 'moved/here.md' });
    expect(res.status).toBe(200);
    expect(await b.ws.waitFor((m) => m.type === 'yjs-closed')).toMatchObject({
      path: moved,
      reason: 'page_moved',
      new_path: 'moved/here.md',
    });
    // Updates to a closed room are refused, not applied anywhere.
    b.insertEnd('late');
    expect(await b.ws.waitFor((m) => m.type === 'error')).toMatchObject({ error: 'VALIDATION_ERROR' });
  });
});
