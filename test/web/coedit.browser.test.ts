/**
 * Co-editing in headless Chromium against a real server (co-editing is on by default):
 * two and three people, each in their own browser context, type into one
 * page at the same time; every editor ends with the same text, the file on
 * disk holds it after the room's save, and each sees the others' cursors
 * with their names. A viewer follows along read-only. An overlapping change
 * opens the merge view; two writers who lose the network with unsaved text
 * while the page changes through git come back and every word is saved once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  signedInTab,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import {
  bob,
  cloneRepo,
  commitFile,
  createBareRepo,
  fileUrl,
  makeTempDir,
  pushClone,
  removeTempDir,
} from '../helpers/git-fixtures.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createPage, grantRole } from '../helpers/workspace-access.js';
import {
  countPuts,
  cursorAtEndOf,
  editor,
  editorText,
  fileBytes,
  remoteCursorNames,
  saveStatus,
  waitSaved,
} from './editor-helpers.js';

/** A file's text on a bare repository's main branch, or null while it is not there. */
async function fileAt(repo: string, file: string): Promise<string | null> {
  const shown = await runGit(repo, ['show', `main:${file}`], { allowFailure: true });
  return shown.code === 0 ? shown.stdout : null;
}

describeInChromium('web app: co-editing', () => {
  const app = useBrowserApp({
    owner: { name: 'Olive Owner' },
    start: () => startAppServer({ coedit: { debounceMs: 300, maxWaitMs: 2000 } }),
  });
  let cleo: TestUser;
  let theo: TestUser;
  let vera: TestUser;

  beforeAll(async () => {
    cleo = await registerUser(app.server, { name: 'Cleo Colleague' });
    theo = await registerUser(app.server, { name: 'Theo Third' });
    vera = await registerUser(app.server, { name: 'Vera Viewer' });
    await grantRole(app.server, app.ws, cleo, 'editor');
    await grantRole(app.server, app.ws, theo, 'editor');
    await grantRole(app.server, app.ws, vera, 'viewer');
  });

  /** The page body in the file on disk: what follows the frontmatter and its blank line. */
  const body = (pagePath: string) => {
    const text = fileBytes(app.server, app.ws.id, pagePath).toString('utf8');
    return text.slice(text.indexOf('\n---\n\n') + 6);
  };

  /** Opens the page as each user and waits until everyone sees everyone else's cursor. */
  async function openAll(pagePath: string, users: TestUser[]) {
    const tabs = [];
    for (const user of users) {
      const tab = await app.openWorkspace(pagePath, { as: user });
      await editor(tab.page).waitFor();
      // A cursor is shared once the editor has one: click into the text.
      await tab.page.locator('.cm-line').first().click();
      tabs.push(tab);
    }
    for (const tab of tabs) {
      await eventually(async () => (await remoteCursorNames(tab.page)).length === users.length - 1, 20_000);
    }
    return tabs;
  }

  it('two writers typing at once converge, the file holds the text after the save, and cursors show names', async () => {
    await app.createPage('together.md', { title: 'Together', body: 'First line\n\nSecond line\n' });
    const [mine, theirs] = await openAll('together.md', [app.owner, cleo]);
    await cursorAtEndOf(mine!.page, 'First line');
    await cursorAtEndOf(theirs!.page, 'Second line');
    await Promise.all([
      mine!.page.keyboard.type(' typed by Olive while Cleo types', { delay: 15 }),
      theirs!.page.keyboard.type(' typed by Cleo while Olive types', { delay: 15 }),
    ]);
    const expected =
      'First line typed by Olive while Cleo types\n\nSecond line typed by Cleo while Olive types\n';
    await eventually(async () => (await editorText(mine!.page)) === expected, 20_000);
    await eventually(async () => (await editorText(theirs!.page)) === expected, 20_000);
    await waitSaved(mine!.page);
    await waitSaved(theirs!.page);
    await eventually(async () => body('together.md') === expected, 20_000);

    expect(await remoteCursorNames(mine!.page)).toEqual(['Cleo Colleague']);
    expect(await remoteCursorNames(theirs!.page)).toEqual(['Olive Owner']);
    expect(await seriousA11yViolations(mine!.page), 'co-edited page').toEqual([]);
    await mine!.page.screenshot({ path: path.join(ARTIFACTS, 'coedit-two-writers.png') });
    await Promise.all([mine!.context.close(), theirs!.context.close()]);
  }, 180_000);

  it('three writers typing at once converge on the same text, saved to the file', async () => {
    await app.createPage('three.md', { title: 'Three', body: 'A:\nB:\nC:\n' });
    const tabs = await openAll('three.md', [app.owner, cleo, theo]);
    const lines = ['A:', 'B:', 'C:'];
    await Promise.all(tabs.map((tab, i) => cursorAtEndOf(tab.page, lines[i]!)));
    await Promise.all(
      tabs.map((tab, i) => tab.page.keyboard.type(` writer ${i + 1} was here`, { delay: 15 })),
    );
    const expected = 'A: writer 1 was here\nB: writer 2 was here\nC: writer 3 was here\n';
    for (const tab of tabs) await eventually(async () => (await editorText(tab.page)) === expected, 20_000);
    await eventually(async () => body('three.md') === expected, 20_000);
    for (const tab of tabs) await waitSaved(tab.page);
    expect((await remoteCursorNames(tabs[2]!.page)).sort()).toEqual(['Cleo Colleague', 'Olive Owner']);
    await tabs[2]!.page.screenshot({ path: path.join(ARTIFACTS, 'coedit-three-writers.png') });
    await Promise.all(tabs.map((tab) => tab.context.close()));
  }, 180_000);

  it('a change saved elsewhere appears in untouched editors in place, which still read Saved', async () => {
    await app.createPage('elsewhere.md', { title: 'Elsewhere', body: 'First\nSecond\n' });
    // Both in the room once each shows the other's cursor.
    const tabs = await openAll('elsewhere.md', [app.owner, cleo]);
    const puts = tabs.map((tab) => countPuts(tab.page));
    const url = `/api/v1/content/${app.ws.slug}/elsewhere.md`;
    const current = (await app.server.request('GET', url, { token: app.owner.token })).body;
    const put = await app.server.request('PUT', url, {
      token: app.owner.token,
      body: { body: 'First\nSecond, from elsewhere\n', lastKnownHash: current.content_hash },
    });
    expect(put.status).toBe(200);
    for (const { page } of tabs) {
      await eventually(async () => (await editorText(page)) === 'First\nSecond, from elsewhere\n', 20_000);
      await waitSaved(page);
    }
    expect(body('elsewhere.md')).toBe('First\nSecond, from elsewhere\n');
    expect(puts.map((p) => p.count)).toEqual([0, 0]);
    await Promise.all(tabs.map((tab) => tab.context.close()));
  }, 60_000);

  it('a viewer follows the text live, read-only, on a phone-sized screen', async () => {
    await app.createPage('follow.md', { title: 'Follow', body: 'Watch this:\n' });
    const writer = await app.openWorkspace('follow.md');
    await editor(writer.page).waitFor();
    const viewer = await app.openWorkspace('follow.md', { as: vera, width: 390, height: 800 });
    await editor(viewer.page).waitFor();
    await cursorAtEndOf(writer.page, 'Watch this:');
    await viewer.page.locator('.cm-line').first().click();
    await eventually(async () => (await remoteCursorNames(writer.page)).length === 1, 20_000);
    await writer.page.keyboard.type(' live words');
    await eventually(async () => (await editorText(viewer.page)) === 'Watch this: live words\n', 20_000);
    expect(await editor(viewer.page).getAttribute('aria-readonly')).toBe('true');
    expect(await seriousA11yViolations(viewer.page), 'viewer at 390 px').toEqual([]);
    await viewer.page.screenshot({ path: path.join(ARTIFACTS, 'coedit-viewer-390.png') });
    await Promise.all([writer.context.close(), viewer.context.close()]);
  }, 120_000);
});

describeInChromium('web app: co-editing conflicts and returning editors', () => {
  let remoteRoot = '';
  // A debounce far longer than the test: the typed text is unsaved when the other change lands.
  const app = useBrowserApp({
    owner: { name: 'Olive Owner' },
    start: async () => {
      remoteRoot = await makeTempDir('folio-coedit-git-');
      return startAppServer({
        env: { GIT_ALLOW_FILE_REMOTES: 'true', GIT_FILE_REMOTE_ROOT: remoteRoot, GIT_SYNC_INTERVAL: '0' },
        coedit: { debounceMs: 600_000 },
      });
    },
  });
  afterAll(() => removeTempDir(remoteRoot));

  it('an overlapping change saved elsewhere opens the merge view, and the writer’s choice is saved', async () => {
    await app.createPage('clash.md', { title: 'Clash', body: 'Alpha\nBeta\nGamma\n' });
    const { context, page } = await app.openWorkspace('clash.md');
    await editor(page).waitFor();
    await cursorAtEndOf(page, 'Gamma');
    await page.keyboard.type(' (mine)');
    await eventually(async () => (await editorText(page)) === 'Alpha\nBeta\nGamma (mine)\n');
    const url = `/api/v1/content/${app.ws.slug}/clash.md`;
    // The room has the typed text (cursor sent with it), not yet the file: the API's change overlaps it.
    await eventually(async () => (await app.server.folio.rooms!.stats()).peers === 1);
    const current = (await app.server.request('GET', url, { token: app.owner.token })).body;
    expect(current.content).toBe('Alpha\nBeta\nGamma\n');
    const put = await app.server.request('PUT', url, {
      token: app.owner.token,
      body: { body: 'Alpha\nBeta\nGamma (theirs)\n', lastKnownHash: current.content_hash },
    });
    expect(put.status).toBe(200);

    const merge = page.getByRole('region', { name: 'Someone else changed this page' });
    await merge.waitFor({ timeout: 20_000 });
    expect(await seriousA11yViolations(page), 'merge view while co-editing').toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'coedit-conflict.png') });
    await merge.getByRole('button', { name: 'Keep mine' }).click();
    await eventually(
      async () =>
        (await app.server.request('GET', url, { token: app.owner.token })).body.content ===
        'Alpha\nBeta\nGamma (mine)\n',
      20_000,
    );
    await waitSaved(page);
    await context.close();
  }, 120_000);

  it('two writers offline with unsaved text while git changes the page come back, and every word is in the file once', async () => {
    // A workspace on a bare remote, with Cleo as a second editor.
    const bare = await createBareRepo(remoteRoot, 'docs');
    const created = await app.server.request('POST', '/api/v1/workspaces', {
      token: app.owner.token,
      body: { name: 'Offline', slug: 'offline', git_remote: fileUrl(bare), git_branch: 'main' },
    });
    expect(created.status).toBe(201);
    const ws = { id: created.body.id as string, slug: 'offline' };
    const cleo = await registerUser(app.server, { name: 'Cleo Colleague' });
    await grantRole(app.server, ws, cleo, 'editor');
    await createPage(app.server, app.owner, ws, 'away.md', {
      title: 'Away',
      body: 'Intro.\n\nOlive:\nCleo:\n',
    });
    const sync = () =>
      app.server.request('POST', `/api/v1/workspaces/${ws.id}/sync`, { token: app.owner.token });
    expect((await sync()).status).toBe(200);
    await eventually(async () => (await fileAt(bare, 'away.md')) !== null);
    const onDisk = () => fileBytes(app.server, ws.id, 'away.md').toString('utf8');
    const body = () => onDisk().slice(onDisk().indexOf('\n---\n\n') + 6);

    const open = async (user: TestUser) => {
      const tab = await signedInTab(app.browser, app.server, user, `/w/${ws.slug}`);
      const net = await cuttableSocket(tab.context);
      await tab.page.goto(`${app.server.url}/w/${ws.slug}/away.md`);
      await editor(tab.page).waitFor();
      return { ...tab, net };
    };
    const olive = await open(app.owner);
    const cleoTab = await open(cleo);
    await cursorAtEndOf(olive.page, 'Olive:');
    await cursorAtEndOf(cleoTab.page, 'Cleo:');
    for (const tab of [olive, cleoTab])
      await eventually(async () => (await remoteCursorNames(tab.page)).length === 1, 20_000);

    // Typed together, seen by both, not saved yet (the debounce is long).
    await olive.page.keyboard.type(' olive-online');
    await cleoTab.page.keyboard.type(' cleo-online');
    const online = 'Intro.\n\nOlive: olive-online\nCleo: cleo-online\n';
    for (const tab of [olive, cleoTab])
      await eventually(async () => (await editorText(tab.page)) === online, 20_000);
    expect(body()).toBe('Intro.\n\nOlive:\nCleo:\n');

    // Both go offline: the room saves what it has as the last one leaves, unheard by either tab.
    for (const tab of [olive, cleoTab]) {
      await tab.context.setOffline(true);
      await tab.net.cut();
    }
    await eventually(async () => body() === online, 20_000);
    await olive.page.keyboard.type(' olive-offline');
    await cleoTab.page.keyboard.type(' cleo-offline');
    for (const tab of [olive, cleoTab]) expect(await saveStatus(tab.page).textContent()).toMatch(/Unsaved/);

    // Meanwhile the page changes through git: pushed elsewhere, pulled by Folio.
    expect((await sync()).status).toBe(200);
    await eventually(async () => (await fileAt(bare, 'away.md'))?.includes('olive-online'));
    const clone = await cloneRepo(fileUrl(bare), path.join(remoteRoot, 'clone'));
    const cloned = fs.readFileSync(path.join(clone, 'away.md'), 'utf8');
    await commitFile(clone, 'away.md', cloned.replace('Intro.', 'Intro, from git.'), bob);
    await pushClone(clone);
    expect((await sync()).status).toBe(200);
    expect(body()).toBe('Intro, from git.\n\nOlive: olive-online\nCleo: cleo-online\n');

    // Both come back, without a reload: every word once, in both editors and in the file.
    for (const tab of [olive, cleoTab]) {
      await tab.context.setOffline(false);
      tab.net.restore();
    }
    const expected =
      'Intro, from git.\n\nOlive: olive-online olive-offline\nCleo: cleo-online cleo-offline\n';
    for (const tab of [olive, cleoTab]) {
      await eventually(async () => (await editorText(tab.page)) === expected, 30_000).catch(() => undefined);
      expect(await editorText(tab.page)).toBe(expected);
    }
    // The last writer leaving saves at once.
    await Promise.all([olive.context.close(), cleoTab.context.close()]);
    await eventually(async () => body() === expected, 20_000).catch(() => undefined);
    expect(body()).toBe(expected);
    const file = onDisk();
    for (const word of ['from git', 'olive-online', 'olive-offline', 'cleo-online', 'cleo-offline'])
      expect(file.split(word), word).toHaveLength(2);
  }, 180_000);

  it('text typed before the room lets the editor in is merged with the room’s unsaved text, each word once', async () => {
    const bodyOf = (pagePath: string) => {
      const text = fileBytes(app.server, app.ws.id, pagePath).toString('utf8');
      return text.slice(text.indexOf('\n---\n\n') + 6);
    };
    const cleo = await registerUser(app.server, { name: 'Cleo Early' });
    await grantRole(app.server, app.ws, cleo, 'editor');
    await app.createPage('early.md', { title: 'Early', body: 'Olive:\nCleo:\n' });
    const cleoTab = await app.openWorkspace('early.md', { as: cleo });
    await editor(cleoTab.page).waitFor();
    await eventually(async () => (await app.server.folio.rooms!.stats()).peers >= 1);

    // Olive's tab loads the page without a socket, and its own saves fail: Olive types.
    const olive = await signedInTab(app.browser, app.server, app.owner, `/w/${app.ws.slug}`);
    const net = await cuttableSocket(olive.context);
    await net.cut();
    await olive.page.route('**/api/v1/content/**', (route) =>
      route.request().method() === 'PUT' ? route.abort() : route.continue(),
    );
    await olive.page.goto(`${app.server.url}/w/${app.ws.slug}/early.md`);
    await editor(olive.page).waitFor();
    await cursorAtEndOf(olive.page, 'Olive:');
    await olive.page.keyboard.type(' olive-early');
    // Meanwhile Cleo types in the room (not saved: the debounce is long).
    await cursorAtEndOf(cleoTab.page, 'Cleo:');
    await cleoTab.page.keyboard.type(' cleo-in-room');
    expect(bodyOf('early.md')).toBe('Olive:\nCleo:\n');

    // The socket comes back: the room, not a page save, takes in what Olive typed.
    net.restore();
    const expected = 'Olive: olive-early\nCleo: cleo-in-room\n';
    for (const page of [olive.page, cleoTab.page]) {
      await eventually(async () => (await editorText(page)) === expected, 20_000).catch(() => undefined);
      expect(await editorText(page)).toBe(expected);
    }
    expect(bodyOf('early.md')).toBe('Olive:\nCleo:\n');
    await Promise.all([olive.context.close(), cleoTab.context.close()]);
    await eventually(async () => bodyOf('early.md') === expected, 20_000).catch(() => undefined);
    expect(bodyOf('early.md')).toBe(expected);
  }, 120_000);
});

/**
 * Lets a test take a tab's `/ws` socket away as a lost network would (Chromium's offline
 * mode, `context.setOffline`, cuts HTTP but leaves open WebSockets alone): routed sockets are closed on `cut`, and sockets the
 * app opens while cut are closed at once, until `restore`. Install it before the tab
 * loads the page whose socket it should control.
 */
async function cuttableSocket(context: BrowserContext) {
  let cut = false;
  const live = new Set<{ page: WebSocketRoute; server: WebSocketRoute }>();
  await context.routeWebSocket(/\/ws$/, (ws) => {
    if (cut) return void ws.close();
    const pair = { page: ws, server: ws.connectToServer() };
    live.add(pair);
    ws.onClose(() => {
      live.delete(pair);
      void pair.server.close().catch(() => undefined);
    });
    pair.server.onClose(() => void ws.close().catch(() => undefined));
  });
  return {
    /** Closes the tab's sockets and refuses new ones. */
    async cut(): Promise<void> {
      cut = true;
      for (const pair of [...live]) {
        live.delete(pair);
        await Promise.all([pair.page.close(), pair.server.close()]);
      }
    },
    /** Lets the tab's next socket through. */
    restore(): void {
      cut = false;
    },
  };
}
