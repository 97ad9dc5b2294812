import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { createPgSchema, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink } from '../collab/collab-helpers.js';
import { YjsTestClient } from './yjs-client.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

const available = Boolean(TEST_DATABASE_URL && TEST_REDIS_URL);
if (!available)
  console.warn(
    '[folio tests] TEST_DATABASE_URL or TEST_REDIS_URL is not set: co-editing across instances is skipped.',
  );

/**
 * Two instances on one PostgreSQL schema, one DATA_DIR and one Redis, with an owner and an
 * editor of the owner's workspace; `cleanup` stops both and drops the schema.
 */
async function startInstances(coedit: { debounceMs: number; maxWaitMs?: number }) {
  const schema = await createPgSchema(TEST_DATABASE_URL!);
  const options = {
    dataDir: tempDir(),
    pgSchema: schema.schema,
    env: { DATABASE_URL: TEST_DATABASE_URL!, REDIS_URL: TEST_REDIS_URL! },
    coedit,
    gitCommitDebounceMs: 50,
    rateLimits: {
      auth: { limit: 100_000 },
      registration: { limit: 100_000 },
      contentRead: { limit: 100_000 },
      contentWrite: { limit: 100_000 },
    },
  };
  const a = await startServer(options);
  const b = await startServer(options);
  const owner = await registerUser(a, { name: 'Olive Owner' });
  const editor = await registerUser(a, { name: 'Edith Editor' });
  const ws = await firstWorkspace(a, owner);
  await joinWithLink(a, owner, ws.id, editor, 'editor');
  const cleanup = async () => {
    await b.close();
    await a.close();
    await schema.cleanup();
  };
  return { a, b, owner, editor, ws, cleanup };
}

/**
 * Two instances on one PostgreSQL schema, one DATA_DIR and one Redis, a
 * writer on each: the room of a page is one document across them, and each
 * change is saved once, whichever instance saves it.
 */
describe.runIf(available)('co-editing across instances (PostgreSQL + Redis)', () => {
  let a: TestServer;
  let b: TestServer;
  let cleanup: () => Promise<void>;
  let owner: TestUser;
  let editor: TestUser;
  let ws: { id: string; slug: string };
  const open: YjsTestClient[] = [];
  let pageCount = 0;

  const join = async (server: TestServer, user: TestUser, pagePath: string) => {
    const { client, joined } = await YjsTestClient.join(server, user, ws.slug, pagePath);
    open.push(client);
    expect(joined).toMatchObject({ type: 'yjs-joined', writable: true });
    return { client, joined };
  };
  const newPage = async (body: string) => {
    const pagePath = `instances/page-${++pageCount}.md`;
    const res = await a.request('PUT', `/api/v1/content/${ws.slug}/${pagePath}`, {
      token: owner.token,
      body: { body, frontmatter: { title: `Page ${pageCount}` } },
    });
    expect(res.status).toBe(201);
    return pagePath;
  };
  const read = async (server: TestServer, pagePath: string) =>
    (await server.request('GET', `/api/v1/content/${ws.slug}/${pagePath}`, { token: owner.token })).body;
  const saves = async (pagePath: string) => {
    const res = await a.request(
      'GET',
      `/api/v1/workspaces/${ws.id}/page-activity?page=${encodeURIComponent(pagePath)}&limit=100`,
      { token: owner.token },
    );
    expect(res.status).toBe(200);
    return (res.body.data as any[]).filter((e) => e.action === 'page_updated');
  };
  /** Types on each instance's room of a fresh page and waits until both saved: all earlier saves ran. */
  const settle = async () => {
    const marker = await newPage('Marker.\n');
    const onA = await join(a, owner, marker);
    const onB = await join(b, editor, marker);
    onA.client.insert(0, 'a');
    await eventually(async () => onB.client.text === 'aMarker.\n');
    onB.client.insert(0, 'b');
    await eventually(async () => (await read(a, marker)).content === 'baMarker.\n');
  };

  beforeAll(async () => {
    ({ a, b, owner, editor, ws, cleanup } = await startInstances({ debounceMs: 150, maxWaitMs: 1000 }));
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await cleanup?.();
  });

  it('one writer on each instance typing at once converge, and the file equals the text after the save', async () => {
    const pagePath = await newPage('# Plan\n\nFirst line.\n');
    const onA = await join(a, owner, pagePath);
    const onB = await join(b, editor, pagePath);
    // B opened the room A already held: the same document, the text once.
    expect(onB.joined.epoch).toBe(onA.joined.epoch);
    expect(onB.client.text).toBe('# Plan\n\nFirst line.\n');

    for (let i = 0; i < 20; i++) {
      onA.client.insert(onA.client.text.indexOf('First'), `a${i} `);
      onB.client.insert(onB.client.text.length, `b${i}\n`);
    }
    await eventually(
      async () =>
        onA.client.text === onB.client.text &&
        onA.client.text.includes('b19') &&
        onA.client.text.includes('a19'),
    );
    const text = onA.client.text;
    expect(text.match(/a\d+ /g)).toHaveLength(20);
    expect(text.match(/b\d+\n/g)).toHaveLength(20);
    expect(text.match(/First line\./g)).toHaveLength(1);
    await eventually(async () => (await read(a, pagePath)).content === text);
    expect((await read(b, pagePath)).content).toBe(text);
    const file = await readFile(path.join(a.dataDir, 'workspaces', ws.id, pagePath), 'utf8');
    expect(file.endsWith(text)).toBe(true);
  });

  it('shows a writer’s cursor to the sockets of the other instance', async () => {
    const pagePath = await newPage('Cursor.\n');
    const onA = await join(a, owner, pagePath);
    const onB = await join(b, editor, pagePath);
    const mine = new Awareness(onA.client.doc);
    mine.setLocalState({ user: { name: 'Olive Owner' }, cursor: { anchor: 3, head: 3 } });
    const update = Buffer.from(encodeAwarenessUpdate(mine, [mine.clientID])).toString('base64');
    onA.client.ws.send({ type: 'yjs-awareness', workspace_id: ws.id, path: pagePath, update });
    const seen = await onB.client.ws.waitFor((m) => m.type === 'yjs-awareness' && m.path === pagePath);
    const theirs = new Awareness(onB.client.doc);
    applyAwarenessUpdate(theirs, new Uint8Array(Buffer.from(seen.update, 'base64')), 'server');
    expect(theirs.getStates().get(mine.clientID)).toMatchObject({ user: { name: 'Olive Owner' } });
    mine.destroy();
    theirs.destroy();
  });

  it('saves a change once, though the room on both instances holds it unsaved', async () => {
    const pagePath = await newPage('Once.\n');
    const onA = await join(a, owner, pagePath);
    const onB = await join(b, editor, pagePath);
    expect(await saves(pagePath)).toHaveLength(0);

    onA.client.insert(0, 'Typed on A. ');
    await eventually(async () => onB.client.text === 'Typed on A. Once.\n');
    // B's room held the change unsaved too, and hears that A saved it.
    await onB.client.ws.waitFor((m) => m.type === 'yjs-saved' && m.saved_text === 'Typed on A. Once.\n');
    expect((await read(b, pagePath)).content).toBe('Typed on A. Once.\n');
    await settle();
    expect(await saves(pagePath)).toHaveLength(1);

    onB.client.insert(onB.client.text.length, 'Typed on B.\n');
    await eventually(async () => onA.client.text === 'Typed on A. Once.\nTyped on B.\n');
    await eventually(async () => (await read(a, pagePath)).content === 'Typed on A. Once.\nTyped on B.\n');
    await settle();
    expect(await saves(pagePath)).toHaveLength(2);
  });

  it('merges an API write into the room once, though both instances hold it', async () => {
    const pagePath = await newPage('Top.\n\nBottom.\n');
    const onA = await join(a, owner, pagePath);
    const onB = await join(b, editor, pagePath);
    const page = await read(a, pagePath);
    const put = await b.request('PUT', `/api/v1/content/${ws.slug}/${pagePath}`, {
      token: owner.token,
      body: { body: 'Top.\n\nBottom.\nFrom the API.\n', lastKnownHash: page.content_hash },
    });
    expect(put.status, put.text).toBe(200);
    const merged = 'Top.\n\nBottom.\nFrom the API.\n';
    await eventually(async () => onA.client.text === merged && onB.client.text === merged);
    // Whichever instance brought it in, the editors on both are told the file holds it.
    for (const { client } of [onA, onB]) {
      const notice = await client.ws.waitFor(
        (m) => m.type === 'yjs-saved' && m.content_hash === put.body.content_hash,
      );
      expect(notice.saved_text).toBe(merged);
    }
    onA.client.insert(0, 'A: ');
    await eventually(async () => (await read(a, pagePath)).content === `A: ${merged}`);
    await settle();
    expect(onB.client.text).toBe(`A: ${merged}`);
    expect(onA.client.text.match(/From the API/g)).toHaveLength(1);
  });
});

describe.runIf(available)('co-editing conflicts across instances (PostgreSQL + Redis)', () => {
  // Rooms that never save by themselves here: the API's write lands on unsaved edits.
  let env: Awaited<ReturnType<typeof startInstances>>;
  const open: YjsTestClient[] = [];
  beforeAll(async () => {
    env = await startInstances({ debounceMs: 600_000, maxWaitMs: 600_000 });
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await env?.cleanup();
  });

  it('an API write overlapping edits typed on both instances raises conflict-detected on both, and nothing is lost', async () => {
    const { a, b, owner, editor, ws } = env;
    const pagePath = 'clash.md';
    const url = `/api/v1/content/${ws.slug}/${pagePath}`;
    const read = async () => (await a.request('GET', url, { token: owner.token })).body;
    expect(
      (await a.request('PUT', url, { token: owner.token, body: { body: 'Alpha\nBeta\nGamma\n' } })).status,
    ).toBe(201);
    const onA = (await YjsTestClient.join(a, owner, ws.slug, pagePath)).client;
    const onB = (await YjsTestClient.join(b, editor, ws.slug, pagePath)).client;
    open.push(onA, onB);
    for (const client of [onA, onB]) expect((await client.ws.subscribe(ws.id)).type).toBe('subscribed');

    onA.replace('Gamma', 'Gamma typed on A');
    await eventually(async () => onB.text === 'Alpha\nBeta\nGamma typed on A\n');
    onB.replace('Gamma typed on A', 'Gamma typed on A and B');
    const typed = 'Alpha\nBeta\nGamma typed on A and B\n';
    await eventually(async () => onA.text === typed);
    await Promise.all([onA.ws.roundTrip(), onB.ws.roundTrip()]);

    const page = await read();
    expect(page.content).toBe('Alpha\nBeta\nGamma\n');
    const api = 'Alpha\nBeta\nGamma from the API\n';
    const put = await b.request('PUT', url, {
      token: owner.token,
      body: { body: api, lastKnownHash: page.content_hash },
    });
    expect(put.status, put.text).toBe(200);
    // Each instance's sockets hear it: the room stops saving, and the workspace event.
    for (const client of [onA, onB]) {
      await client.ws.waitFor((m) => m.type === 'yjs-conflict' && m.path === pagePath);
      await client.ws.waitFor((m) => m.type === 'conflict-detected' && m.path === pagePath);
    }
    // Both sides kept: the file has the API's line, both rooms the typed one.
    expect(onA.text).toBe(typed);
    expect(onB.text).toBe(typed);
    onA.insertEnd('Delta from A\n');
    await eventually(async () => onB.text === `${typed}Delta from A\n`);
    expect((await read()).content).toBe(api);

    // An editor on B settles it in the merge view; that save is A's room's base too, and it saves again.
    onB.replace('Gamma typed on A and B', 'Gamma from the API, typed on A and B');
    const resolved = 'Alpha\nBeta\nGamma from the API, typed on A and B\nDelta from A\n';
    await eventually(async () => onA.text === resolved);
    onB.ws.send({ type: 'yjs-resolved', workspace_id: ws.id, path: pagePath });
    await onA.ws.waitFor((m) => m.type === 'yjs-saved' && m.saved_text === resolved);
    expect((await read()).content).toBe(resolved);
    // The last socket on A leaving saves A's room at once: it no longer holds back.
    onA.insertEnd('Epsilon from A\n');
    await onA.ws.roundTrip();
    onA.leave();
    await eventually(async () => (await read()).content === `${resolved}Epsilon from A\n`);
  });
});
