import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { serverProcess, type ServerProcess } from '../helpers/server-process.js';
import { registerUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink } from '../collab/collab-helpers.js';
import { YjsTestClient } from './yjs-client.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

describe('co-editing across restarts', () => {
  const dataDir = tempDir();
  let server: TestServer | null = null;
  const open: YjsTestClient[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server?.close();
  });
  // A debounce far longer than any wait below: only leaving or stopping saves.
  const start = async () => (server = await startServer({ dataDir, coedit: { debounceMs: 600_000 } }));

  it('saves at once when the last writer leaves; reuses the saved state, bringing in a file changed meanwhile as a diff; a new epoch only without a usable base', async () => {
    await start();
    const owner = await registerUser(server!);
    const ws = await firstWorkspace(server!, owner);
    const pagePath = 'restart.md';
    const url = `/api/v1/content/${ws.slug}/${pagePath}`;
    expect(
      (await server!.request('PUT', url, { token: owner.token, body: { body: 'Start.\n' } })).status,
    ).toBe(201);
    const read = async () => (await server!.request('GET', url, { token: owner.token })).body;

    const first = await YjsTestClient.join(server!, owner, ws.slug, pagePath);
    open.push(first.client);
    first.client.insert(0, 'Bye. ');
    await first.client.close();
    await eventually(async () => (await read()).content === 'Bye. Start.\n');

    // Same file, same state: the epoch survives a restart, so a client's own state merges in.
    await server!.close();
    await start();
    const again = await YjsTestClient.join(server!, owner, ws.slug, pagePath);
    open.push(again.client);
    expect(again.joined.epoch).toBe(first.joined.epoch);
    expect(again.client.text).toBe('Bye. Start.\n');
    await again.client.close();

    // The file changed while no room was open: the change is applied to the saved state as a
    // diff, and the epoch survives, so an editor holding that state merges through Yjs.
    await server!.close();
    const file = path.join(dataDir, 'workspaces', ws.id, pagePath);
    await writeFile(file, (await readFile(file, 'utf8')).replace('Bye. Start.', 'Rewritten by hand.'));
    await start();
    const reopened = await YjsTestClient.join(server!, owner, ws.slug, pagePath);
    open.push(reopened.client);
    expect(reopened.joined.epoch).toBe(first.joined.epoch);
    expect(reopened.client.text).toBe('Rewritten by hand.\n');
    expect(reopened.joined.content_hash).toBe((await read()).content_hash);
    await reopened.client.close();

    // A state stored without its base cannot be diffed against a changed file: a new epoch.
    await server!.close();
    const states = path.join(dataDir, 'meta', ws.id, 'coedit');
    for (const name of await readdir(states)) {
      const stored = JSON.parse(await readFile(path.join(states, name), 'utf8'));
      delete stored.base;
      await writeFile(path.join(states, name), JSON.stringify(stored));
    }
    await writeFile(file, (await readFile(file, 'utf8')).replace('Rewritten by hand.', 'Once more.'));
    await start();
    const fresh = await YjsTestClient.join(server!, owner, ws.slug, pagePath);
    open.push(fresh.client);
    expect(fresh.joined.epoch).not.toBe(first.joined.epoch);
    expect(fresh.client.text).toBe('Once more.\n');
  });
});

describe('co-editing when the server is killed', () => {
  let killable: ServerProcess | null = null;
  const open: YjsTestClient[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await killable?.kill();
  });

  it('keeps what was saved, and each writer’s unsaved text comes back once after the restart', async () => {
    killable = await serverProcess();
    // Enough of a TestServer for the clients: its URL and requests.
    const server = killable as unknown as TestServer;
    await killable.start();
    const owner = await registerUser(server, { name: 'Olive Owner' });
    const editor = await registerUser(server, { name: 'Edith Editor' });
    const ws = await firstWorkspace(server, owner);
    await joinWithLink(server, owner, ws.id, editor, 'editor');
    const pagePath = 'killed.md';
    const pageUrl = `/api/v1/content/${ws.slug}/${pagePath}`;
    expect(
      (await server.request('PUT', pageUrl, { token: owner.token, body: { body: 'Top.\n' } })).status,
    ).toBe(201);
    const read = async () => (await server.request('GET', pageUrl, { token: owner.token })).body;

    const a = (await YjsTestClient.join(server, owner, ws.slug, pagePath)).client;
    const b = (await YjsTestClient.join(server, editor, ws.slug, pagePath)).client;
    open.push(a, b);
    for (let i = 0; i < 5; i++) {
      a.insertEnd(`kept-a${i} `);
      b.insertEnd(`kept-b${i} `);
    }
    await eventually(async () => a.text === b.text && a.text.includes('kept-b4'));
    const saved = a.text;
    await a.ws.waitFor((m) => m.type === 'yjs-saved' && m.saved_text === saved, 15_000);

    // Typed after the save, inside the debounce window, then the server dies.
    for (let i = 0; i < 5; i++) {
      a.insertEnd(`late-a${i} `);
      b.insertEnd(`late-b${i} `);
    }
    await Promise.all([a.ws.roundTrip(), b.ws.roundTrip()]);
    await eventually(
      async () => a.text === b.text && a.text.includes('late-b4') && a.text.includes('late-a4'),
    );
    const typed = a.text;
    await killable.kill();

    await killable.start();
    // Everything saved before the kill is in the file (the debounce may have saved the rest too).
    expect([saved, typed]).toContain((await read()).content);
    expect((await read()).content.startsWith(saved.slice(0, -1))).toBe(true);
    // Each writer reconnects and joins again with the state it holds.
    for (const client of [a, b]) {
      const user = client === a ? owner : editor;
      const ws2 = await YjsTestClient.connect(server, user);
      open.push({ close: () => ws2.close() } as YjsTestClient);
      (client as any).ws = ws2;
      (client as any).listening = false;
      expect((await client.join(ws.slug)).epoch).toBe(client.epoch);
    }
    await eventually(async () => a.text === typed && b.text === typed);
    expect(a.text).toBe(typed);
    // Saved once more by the restarted server, with nothing doubled.
    await eventually(async () => (await read()).content === typed, 20_000);
    for (const token of ['kept-a0 ', 'late-a4 ', 'late-b4 ']) {
      expect(typed.split(token)).toHaveLength(2);
    }
  }, 300_000);
});
