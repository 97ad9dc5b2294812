/**
 * The settings screen's "Edit URL" and last-author switch in Chromium: saved through the
 * settings API, shown on the published page with {path} filled in, and axe-clean.
 */
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ARTIFACTS, describeInChromium, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';

describeInChromium('web app: the site’s edit URL setting', () => {
  const app = useBrowserApp({ owner: { name: 'Olive Owner' } });

  beforeAll(async () => {
    await app.createPage('guides/setup.md', { title: 'Setup', body: 'Read me.\n', publish: true });
  });

  it('saves the edit URL and the author switch; the published page links to the filled-in URL', async () => {
    const { context, page } = await app.openWorkspace();
    await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/general`);
    const field = page.getByLabel('Edit URL');
    await field.fill('https://github.com/acme/docs/edit/main/{path}');
    await page.getByLabel('Name the last author beside “Last updated”').uncheck();
    await page.getByLabel('Anyone can read the published site').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();
    const stored = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/admin/settings`, {
      token: app.owner.token,
    });
    expect(stored.body).toMatchObject({
      edit_url: 'https://github.com/acme/docs/edit/main/{path}',
      show_last_updated_author: false,
    });
    // The form shows what is stored after a reload.
    await page.reload();
    await expect(page.getByLabel('Edit URL').inputValue()).resolves.toBe(
      'https://github.com/acme/docs/edit/main/{path}',
    );
    expect(await seriousA11yViolations(page, '.theme-preview')).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'settings-edit-url.png'), fullPage: true });

    const html = await (await fetch(`${app.server.url}/p/${app.ws.slug}/guides/setup`)).text();
    expect(html).toContain(
      '<a href="https://github.com/acme/docs/edit/main/guides/setup.md">Edit this page</a>',
    );
    expect(html).not.toContain('last-author');
    await context.close();
  }, 90_000);
});
