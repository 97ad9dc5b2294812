/**
 * The editor's writing tools in headless Chromium against a real server: pasted and
 * dropped images are uploaded and linked, the formatting toolbar, slash commands, `[[`
 * page links and missing-page warnings. Each writes only the Markdown the writer chose,
 * and what is saved is what the editor shows.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import {
  ARTIFACTS,
  type BrowserApp,
  describeInChromium,
  seriousA11yViolations,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { registerUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import { countPuts, cursorAtEndOf, editor, fileBytes, holdUploads, waitSaved } from './editor-helpers.js';

/** A 1×1 PNG, as a screenshot tool would put on the clipboard. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * Dispatches a `paste` (ClipboardEvent) or `drop` (DragEvent) holding one PNG file on the
 * editor, as the browser does when a writer pastes a screenshot or drags a file in. A drop
 * lands at the end of the line holding `dropOn`; `base64` replaces the PNG's bytes.
 */
async function sendImage(
  page: Page,
  kind: 'paste' | 'drop',
  name: string,
  { dropOn = '', base64 = PNG_BASE64 } = {},
): Promise<void> {
  const box = dropOn ? await page.locator('.cm-line', { hasText: dropOn }).first().boundingBox() : null;
  await page.evaluate(
    ({ kind, name, base64, x, y }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: 'image/png' }));
      const init = { bubbles: true, cancelable: true };
      const event =
        kind === 'paste'
          ? new ClipboardEvent('paste', { ...init, clipboardData: data })
          : new DragEvent('drop', { ...init, dataTransfer: data, clientX: x, clientY: y });
      document.querySelector('.cm-content')!.dispatchEvent(event);
    },
    {
      kind,
      name,
      base64,
      x: box ? box.x + box.width - 30 : 0,
      y: box ? box.y + box.height / 2 : 0,
    },
  );
}

/** `expect.poll` with room for a loaded machine (its default gives up after a second). */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
const text = (page: Page) => editor(page).evaluate((el) => (el as HTMLElement).innerText);

/**
 * Pastes a screenshot while its upload is held: the editor shows "Uploading…" where the link
 * will go, but the text, the file (and with co-editing the room) never hold a placeholder; the
 * writer types on after it; the link lands before what they typed, is saved, and is one undo
 * step of its own that brings no placeholder back.
 */
async function pasteAnImage(app: BrowserApp, mode: 'coedit' | 'page-by-page'): Promise<void> {
  const saved = (pagePath: string) => fileBytes(app.server, app.ws.id, pagePath).toString('utf8');
  await app.createPage('paste.md', { title: 'Paste', body: 'Before the image.\n' });
  const { context, page } = await app.openWorkspace('paste.md');
  const release = await holdUploads(page);
  await cursorAtEndOf(page, 'Before the image.');
  await page.keyboard.press('Enter');
  await sendImage(page, 'paste', 'release-chart.png');
  await page.keyboard.type('Typed on.');
  await waitSaved(page);
  expect(saved('paste.md')).toContain('Before the image.\nTyped on.\n');
  expect(saved('paste.md')).not.toContain('Uploading');
  expect(await page.getByRole('status').filter({ hasText: 'Uploading release-chart.png…' }).count()).toBe(1);
  await page
    .locator('.cm-editor')
    .screenshot({ path: path.join(ARTIFACTS, `upload-placeholder-${mode}.png`) });

  release();
  await eventually(() => text(page)).toMatch(
    /!\[release-chart\]\(uploads\/release-chart[^)]*\.png\)Typed on\./,
  );
  expect(await page.getByRole('status').filter({ hasText: 'Uploading' }).count()).toBe(0);
  const link = /!\[release-chart\]\((uploads\/[^)]+)\)/.exec(await text(page))!;
  const res = await fetch(`${app.server.url}/api/v1/content/${app.ws.slug}/${link[1]!}`, {
    headers: { authorization: `Bearer ${app.owner.token}` },
  });
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(PNG_BASE64, 'base64'))).toBe(true);
  await waitSaved(page);
  expect(saved('paste.md')).toContain(`Before the image.\n${link[0]}Typed on.\n`);

  // The link is one step: undo takes it out, keeps what was typed, and brings no placeholder back.
  await page.keyboard.press('Control+z');
  await eventually(() => text(page)).not.toContain('release-chart');
  expect(await text(page)).toContain('Before the image.\nTyped on.');
  expect(await text(page)).not.toContain('Uploading');
  await eventually(() => Promise.resolve(saved('paste.md'))).toContain('Before the image.\nTyped on.\n');
  expect(saved('paste.md')).not.toContain('Uploading');
  await context.close();
}

describeInChromium('web app: editor tools', () => {
  const app = useBrowserApp({ owner: true });

  beforeAll(async () => {
    await app.createPage('guides/start.md', { title: 'Getting started', body: 'See also:\n' });
    await app.createPage('reference/api.md', { title: 'API reference', body: 'Endpoints.\n' });
  });

  const saved = (pagePath: string) => fileBytes(app.server, app.ws.id, pagePath).toString('utf8');

  /** The upload an editor link points at, read back through the API: its status and bytes. */
  async function readUpload(href: string) {
    const res = await fetch(`${app.server.url}/api/v1/content/${app.ws.slug}/${href}`, {
      headers: { authorization: `Bearer ${app.owner.token}` },
    });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  it(
    'uploads a pasted image and links it at the cursor, and saves the link',
    () => pasteAnImage(app, 'coedit'),
    90_000,
  );

  it('uploads a dropped image and links it where it was dropped', async () => {
    await app.createPage('guides/drop.md', { title: 'Drop', body: 'Drop here: \n\nAfter.\n' });
    const { context, page } = await app.openWorkspace('guides/drop.md');
    await page.locator('.cm-line', { hasText: 'After.' }).waitFor();
    await sendImage(page, 'drop', 'diagram.png', { dropOn: 'Drop here:' });

    // The page sits in guides/, so the link climbs to the workspace's uploads/ folder.
    await expect
      .poll(() => text(page))
      .toMatch(/Drop here: !\[diagram\]\(\.\.\/uploads\/diagram[^)]*\.png\)\n/);
    const link = /!\[diagram\]\(\.\.\/(uploads\/[^)]+)\)/.exec(await text(page))!;
    expect((await readUpload(link[1]!)).status).toBe(200);
    await waitSaved(page);
    expect(saved('guides/drop.md')).toContain(`Drop here: ${link[0]}\n\nAfter.`);
    await context.close();
  }, 90_000);

  it('removes the placeholder of a refused upload, says why, and saves nothing', async () => {
    await app.createPage('refused.md', { title: 'Refused', body: 'Text stays.\n' });
    const before = saved('refused.md');
    const { context, page } = await app.openWorkspace('refused.md');
    const puts = countPuts(page);
    await cursorAtEndOf(page, 'Text stays.');
    // Called a PNG, but its bytes are of no type the server accepts.
    const garbage = Buffer.from([0, 159, 146, 150, 0, 255, 254, 1, 2, 3, 0, 0]).toString('base64');
    await sendImage(page, 'paste', 'broken.png', { base64: garbage });

    const alert = page.getByRole('alert').filter({ hasText: 'Could not upload broken.png' });
    await alert.waitFor();
    expect(await text(page)).not.toContain('Uploading');
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
    // Longer than the autosave pause: neither the placeholder nor its removal was a change to save.
    await new Promise((r) => setTimeout(r, 2500));
    expect(puts.count).toBe(0);
    expect(saved('refused.md')).toBe(before);
    await context.close();
  }, 90_000);

  it('formats with the toolbar: Bold wraps the selection, arrow keys move along it, viewers have none', async () => {
    await app.createPage('toolbar.md', { title: 'Toolbar', body: 'Make this important.\n' });
    const { context, page } = await app.openWorkspace('toolbar.md');
    await cursorAtEndOf(page, 'Make this important.');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+Shift+ArrowLeft');
    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    await toolbar.getByRole('button', { name: 'Bold' }).click();
    await eventually(() => text(page)).toContain('Make this **important**.');
    await waitSaved(page);
    expect(saved('toolbar.md')).toContain('Make this **important**.\n');

    // One tab stop; the arrow keys, Home and End move the focus between the buttons.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await toolbar.getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Italic');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Table');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Bold');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('Table');
    expect(await toolbar.locator('button[tabindex="0"]').count()).toBe(1);
    await context.close();

    const viewer = await registerUser(app.server);
    await grantRole(app.server, app.ws, viewer, 'viewer');
    const asViewer = await app.openWorkspace('toolbar.md', { as: viewer });
    await asViewer.page.locator('.cm-line', { hasText: 'important' }).waitFor();
    expect(await asViewer.page.getByRole('toolbar').count()).toBe(0);
    await asViewer.context.close();
  }, 90_000);

  it('inserts a heading from the slash commands', async () => {
    await app.createPage('slash.md', { title: 'Slash', body: 'Intro line.\n' });
    const { context, page } = await app.openWorkspace('slash.md');
    await cursorAtEndOf(page, 'Intro line.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/h2');
    await page.getByRole('option', { name: /^Heading 2/, selected: true }).click();
    await page.keyboard.type('Install');
    await eventually(() => text(page)).toContain('Intro line.\n## Install');
    await waitSaved(page);
    expect(saved('slash.md')).toContain('Intro line.\n## Install');
    await context.close();
  }, 90_000);

  it('links to an existing page from `[[`, relative to the page’s folder', async () => {
    const { context, page } = await app.openWorkspace('guides/start.md');
    await cursorAtEndOf(page, 'See also:');
    await page.keyboard.type(' [[API');
    await page.getByRole('option', { name: /^API reference/, selected: true }).click();
    await eventually(() => text(page)).toContain('See also: [API reference](../reference/api.md)');
    await waitSaved(page);
    expect(saved('guides/start.md')).toContain('See also: [API reference](../reference/api.md)\n');
    // What the writer inserted is a link to the page on the published site, not a dead one.
    expect(await page.locator('.cm-lintRange-warning').count()).toBe(0);
    await context.close();
  }, 90_000);

  it('warns about a link to a missing page, not about one to an existing page', async () => {
    await app.createPage('links.md', {
      title: 'Links',
      body: 'Read [the start](guides/start.md) and [the plan](guides/plan.md).\n',
    });
    const { context, page } = await app.openWorkspace('links.md');
    const warnings = page.locator('.cm-lintRange-warning');
    await eventually(() => warnings.allTextContents()).toEqual(['guides/plan.md']);
    await warnings.first().hover();
    await page.locator('.cm-tooltip-lint', { hasText: 'No page at guides/plan.md' }).waitFor();

    // Updated as the writer types…
    await cursorAtEndOf(page, 'Read [the start]');
    await page.keyboard.type(' See [API](reference/api.md), [old](reference/old.md).');
    await eventually(() => warnings.allTextContents()).toEqual(['guides/plan.md', 'reference/old.md']);
    // …and when the page appears in the workspace.
    await app.createPage('guides/plan.md', { title: 'Plan', body: 'Soon.\n' });
    await eventually(() => warnings.allTextContents()).toEqual(['reference/old.md']);
    await context.close();
  }, 90_000);

  it('has no serious or critical WCAG 2.1 AA violations with the toolbar and the slash list open', async () => {
    const { context, page } = await app.openWorkspace('guides/start.md');
    await page.getByRole('toolbar', { name: 'Formatting' }).waitFor();
    await cursorAtEndOf(page, 'See also:');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/');
    await page.getByRole('listbox').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows the toolbar, the slash list and a link warning at 1280 and 390 px, light and dark', async () => {
    await app.createPage('look.md', {
      title: 'Look',
      body: '# A page\n\nA [missing link](nowhere.md).\n\nEnd.\n',
    });
    for (const width of [1280, 390]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context, page } = await app.openWorkspace('look.md', { width, height: 700, colorScheme });
        const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
        await toolbar.waitFor();
        // Every button fits in the bar, also at phone width.
        const bar = await toolbar.evaluate((el) => ({ content: el.scrollWidth, box: el.clientWidth }));
        expect(bar.content, `${width}px toolbar`).toBeLessThanOrEqual(bar.box);
        await page.locator('.cm-lintRange-warning').waitFor();
        await cursorAtEndOf(page, 'End.');
        await page.keyboard.press('Enter');
        await page.keyboard.type('/');
        await page.getByRole('listbox').waitFor();
        await page.screenshot({ path: path.join(ARTIFACTS, `editor-tools-${width}-${colorScheme}.png`) });
        await page.keyboard.press('Escape');
        await page.locator('.cm-lintRange-warning').hover();
        await page.locator('.cm-tooltip-lint').waitFor();
        await page.screenshot({ path: path.join(ARTIFACTS, `link-warning-${width}-${colorScheme}.png`) });
        await context.close();
      }
    }
  }, 120_000);
});

describeInChromium('web app: image uploads, page by page (co-editing off)', () => {
  const app = useBrowserApp({ owner: true, start: () => startAppServer({ env: { FF_COEDIT: 'false' } }) });

  it(
    'uploads a pasted image and links it at the cursor, and saves the link',
    () => pasteAnImage(app, 'page-by-page'),
    90_000,
  );
});
