/**
 * Co-editing through a server crash, in headless Chromium: two writers, each with two
 * pages open, type; one page is saved, then they type more in both and the server process
 * is killed (SIGKILL) in the middle of it, so some of their words reached the rooms but not
 * the files and some are typed while the server is gone. The files then hold exactly what
 * was saved (the second page was never saved). The server restarts on the same port and
 * DATA_DIR; without a reload, each tab reconnects, sends the text the server lost, and the
 * next save writes every word exactly once. */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { joinWithLink } from '../collab/collab-helpers.js';
import { ARTIFACTS, describeInChromium, launchChromium, signedInTab } from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { serverProcess, type ServerProcess } from '../helpers/server-process.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { ensureWebAppBuilt } from '../helpers/web-app.js';
import { createPage } from '../helpers/workspace-access.js';
import {
  cursorAtEndOf,
  editor,
  editorText,
  fileBytes,
  remoteCursorNames,
  saveStatus,
  waitSaved,
} from './editor-helpers.js';

/** The words each writer types around the kill: each must end up in the file exactly once. */
const words = (who: string) => Array.from({ length: 8 }, (_, i) => ` ${who}-${i + 1}`).join('');

describeInChromium('web app: co-editing when the server is killed', () => {
  let server: ServerProcess;
  let browser: Browser;
  let owner: TestUser;
  let colleague: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    // Saved 1.5 s after the last keystroke: while someone types, nothing is saved.
    server = await serverProcess({
      env: { COEDIT_SAVE_DELAY_MS: '1500', COEDIT_SAVE_MAX_WAIT_MS: '600000' },
    });
    await ensureWebAppBuilt();
    [browser] = await Promise.all([launchChromium(), server.start()]);
    owner = await registerUser(server, { name: 'Olive Owner' });
    colleague = await registerUser(server, { name: 'Cleo Colleague' });
    ws = await firstWorkspace(server, owner);
    await joinWithLink(server, owner, ws.id, colleague, 'editor');
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.kill();
  });

  /** The page body in the file on disk: what follows the frontmatter and its blank line. */
  const body = (pagePath: string) => {
    const text = fileBytes(server, ws.id, pagePath).toString('utf8');
    return text.slice(text.indexOf('\n---\n\n') + 6);
  };

  it('keeps what was saved, and each tab re-syncs its unsaved words once after the restart', async () => {
    // crash.md is saved once before the kill; fresh.md never is (its room's state is the file's).
    for (const page of ['crash.md', 'fresh.md'])
      await createPage(server, owner, ws, page, { title: page, body: 'Olive:\nCleo:\n' });
    const open = async (user: TestUser) => {
      const { context, page } = await signedInTab(browser, server, user, `/w/${ws.slug}/crash.md`);
      const second = await context.newPage();
      await second.goto(`${server.url}/w/${ws.slug}/fresh.md`);
      return [page, second] as const;
    };
    const [[olive, oliveFresh], [cleo, cleoFresh]] = await Promise.all([open(owner), open(colleague)]);
    const tabs = [olive, cleo, oliveFresh, cleoFresh];
    // Everyone is in the room once each tab shows the other writer's cursor.
    await Promise.all(
      tabs.map(async (page, i) => {
        await editor(page).waitFor();
        await cursorAtEndOf(page, i % 2 === 0 ? 'Olive:' : 'Cleo:');
      }),
    );
    for (const page of tabs) await eventually(async () => (await remoteCursorNames(page)).length === 1);

    await Promise.all([olive.keyboard.type(' saved-olive'), cleo.keyboard.type(' saved-cleo')]);
    const saved = 'Olive: saved-olive\nCleo: saved-cleo\n';
    await eventually(async () => body('crash.md') === saved, 20_000);
    // "Saved" comes after the room's state is stored with the file's hash.
    for (const page of [olive, cleo]) {
      await eventually(async () => (await editorText(page)) === saved);
      await waitSaved(page);
    }

    // More words from both in both pages; the server dies once each has seen two of the other's.
    const streams: Array<[Page, string]> = [
      [olive, words('olive')],
      [cleo, words('cleo')],
      [oliveFresh, words('olive')],
      [cleoFresh, words('cleo')],
    ];
    const typing = Promise.all(streams.map(([page, text]) => page.keyboard.type(text, { delay: 30 })));
    const seen = async (page: Page, word: string) => (await editorText(page)).includes(word);
    await eventually(
      async () =>
        (await seen(cleo, 'olive-2')) &&
        (await seen(olive, 'cleo-2')) &&
        (await seen(cleoFresh, 'olive-2')) &&
        (await seen(oliveFresh, 'cleo-2')),
    );
    await server.kill();
    await typing;

    // The files hold exactly what was saved; the rest lives only in the tabs.
    expect(body('crash.md')).toBe(saved);
    expect(body('fresh.md')).toBe('Olive:\nCleo:\n');
    // Typed while the server was gone: the other writer's tab cannot have it yet.
    expect(await seen(cleo, 'olive-8')).toBe(false);
    expect(await seen(olive, 'cleo-8')).toBe(false);
    for (const page of tabs) expect(await saveStatus(page).textContent()).toMatch(/Unsaved/);

    await server.start();
    // No reload: the tabs reconnect by themselves, and the rooms save what they send.
    const expected = {
      'crash.md': `Olive: saved-olive${words('olive')}\nCleo: saved-cleo${words('cleo')}\n`,
      'fresh.md': `Olive:${words('olive')}\nCleo:${words('cleo')}\n`,
    };
    for (const [file, text] of Object.entries(expected)) {
      // On failure, the assertion below shows what the file holds instead.
      await eventually(async () => body(file) === text, 30_000).catch(() => undefined);
      expect(body(file)).toBe(text);
    }
    for (const [page, text] of [
      [olive, expected['crash.md']],
      [cleo, expected['crash.md']],
      [oliveFresh, expected['fresh.md']],
      [cleoFresh, expected['fresh.md']],
    ] as const) {
      await eventually(async () => (await editorText(page)) === text, 10_000).catch(() => undefined);
      expect(await editorText(page)).toBe(text);
      await waitSaved(page);
    }
    // Still so once every tab has settled: no late save added anything.
    expect(body('crash.md')).toBe(expected['crash.md']);
    expect(body('fresh.md')).toBe(expected['fresh.md']);
    await olive.screenshot({ path: path.join(ARTIFACTS, 'coedit-after-server-kill.png') });
  }, 120_000);
});
