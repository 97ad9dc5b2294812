/**
 * The "Published" switch in headless Chromium against a real server: it makes
 * the page appear on the published site and changes only the `status` value in
 * the author's frontmatter.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { editor } from './editor-helpers.js';

describeInChromium('web app: publishing', () => {
  const app = useBrowserApp({ owner: true });

  it('publishes a page with the "Published" switch, which then appears at /p/…', async () => {
    await app.createPage('guides/launch.md', { title: 'Launch', body: 'Ready to go.\n' });
    const file = () =>
      readFileSync(path.join(app.server.dataDir, 'workspaces', app.ws.id, 'guides/launch.md'), 'utf8');
    const before = file();
    const site = () =>
      app.server.request('GET', `/p/${app.ws.slug}/guides/launch`, { token: app.owner.token });
    expect((await site()).status).toBe(404);

    const { context, page } = await app.openWorkspace('guides/launch.md');
    await editor(page).waitFor();
    const toggle = page.getByRole('switch', { name: 'Published' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.getByRole('link', { name: 'View on site' }).waitFor();

    expect(file()).toBe(before.replace('status: draft', 'status: published'));
    const published = await site();
    expect(published.status).toBe(200);
    expect(published.text).toContain('Ready to go.');
    await context.close();
  }, 90_000);

  it('edits the title and tags in the details form, changing only those frontmatter values', async () => {
    await app.createPage('guides/rollout.md', { title: 'Rollout', body: 'Step by step.\n' });
    const file = () =>
      readFileSync(path.join(app.server.dataDir, 'workspaces', app.ws.id, 'guides/rollout.md'), 'utf8');
    const before = file();

    const { context, page } = await app.openWorkspace('guides/rollout.md');
    await editor(page).waitFor();
    await page.getByRole('button', { name: 'Details…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Page details' });
    await dialog.getByLabel('Title').fill('Rollout plan');
    await dialog.getByLabel('Tags').fill('release, ops');
    await dialog.getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('heading', { name: 'Rollout plan' }).waitFor();
    await page.getByRole('treeitem', { name: 'Rollout plan' }).waitFor();

    expect(file()).toBe(
      before
        .replace('title: Rollout\n', 'title: Rollout plan\n')
        .replace('status: draft\n', 'status: draft\ntags:\n  - release\n  - ops\n'),
    );
    await context.close();
  }, 90_000);
});
