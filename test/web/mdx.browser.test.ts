/**
 * A Docusaurus `.mdx` page in the web app, in headless Chromium against a real server:
 * the tree opens it at its `.mdx` path, an edit is saved into the same `.mdx` file, and a
 * rename that names no extension keeps `.mdx`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { cursorAtEndOf, editor, fileBytes, waitSaved } from './editor-helpers.js';

describeInChromium('web app: an .mdx page', () => {
  const app = useBrowserApp({ owner: true });

  beforeAll(async () => {
    await app.createPage('docs/tabs.mdx', {
      title: 'Tabs',
      body: "import Tabs from '@theme/Tabs';\n\nChoose a tab.\n",
    });
  });

  const onDisk = (p: string) => existsSync(path.join(app.server.dataDir, 'workspaces', app.ws.id, p));

  it('opens from the tree, saves an edit into the .mdx file, and keeps .mdx on rename', async () => {
    const { context, page } = await app.openWorkspace();
    const tree = page.getByRole('tree', { name: 'Pages' });
    await tree.getByRole('treeitem', { name: 'docs' }).click();
    await tree.getByRole('treeitem', { name: 'Tabs' }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/docs/tabs.mdx`);
    await editor(page).waitFor();
    await page.locator('.cm-line', { hasText: 'Choose a tab.' }).waitFor();

    await cursorAtEndOf(page, 'Choose a tab.');
    await page.keyboard.type(' Edited in the browser.');
    await waitSaved(page);
    const saved = fileBytes(app.server, app.ws.id, 'docs/tabs.mdx').toString('utf8');
    expect(saved).toContain('Choose a tab. Edited in the browser.');
    expect(saved).toContain("import Tabs from '@theme/Tabs';");
    expect(onDisk('docs/tabs.md')).toBe(false);

    await page.getByRole('button', { name: 'Move…' }).click();
    const move = page.getByRole('dialog', { name: 'Move to…' });
    await move.getByLabel('File name').fill('choosing');
    await move.getByRole('button', { name: 'Move' }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/docs/choosing.mdx`);
    expect(onDisk('docs/choosing.mdx')).toBe(true);
    expect(onDisk('docs/tabs.mdx')).toBe(false);
    await context.close();
  }, 90_000);
});
