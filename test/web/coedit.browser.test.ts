/**
 * Co-editing in headless Chromium against a real server with FF_COEDIT on:
 * two and three people, each in their own browser context, type into one
 * page at the same time; every editor ends with the same text, the file on
 * disk holds it after the room's save, and each sees the others' cursors
 * with their names. A viewer follows along read-only.
 */
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import {
  cursorAtEndOf,
  editor,
  editorText,
  fileBytes,
  remoteCursorNames,
  waitSaved,
} from './editor-helpers.js';

describeInChromium('web app: co-editing', () => {
  const app = useBrowserApp({
    owner: { name: 'Olive Owner' },
    start: () => startAppServer({ env: { FF_COEDIT: 'true' }, coedit: { debounceMs: 300, maxWaitMs: 2000 } }),
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

describeInChromium('web app: co-editing conflicts', () => {
  // A debounce far longer than the test: the typed text is unsaved when the other change lands.
  const app = useBrowserApp({
    owner: { name: 'Olive Owner' },
    start: () => startAppServer({ env: { FF_COEDIT: 'true' }, coedit: { debounceMs: 600_000 } }),
  });

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
});
