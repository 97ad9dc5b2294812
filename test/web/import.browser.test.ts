/**
 * Workspace settings → Import and the site navigation choice, in headless Chromium: a
 * Notion export uploaded as a ZIP shows its progress and report, and the pages arrive;
 * the settings screen says which docs tool's navigation the site follows and changes it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  signedInTab,
  useBrowserApp,
} from '../helpers/browser.js';
import { NOTION_FILES, zipOf } from '../imports/export-fixtures.js';

describeInChromium('web app: import and navigation settings', () => {
  const app = useBrowserApp({ workspace: 'imports' });

  it('imports a Notion ZIP with progress and a report, keyboard and 390 px friendly', async () => {
    const { context, page } = await signedInTab(
      app.browser,
      app.server,
      app.owner,
      `/settings/w/${app.ws.slug}/import`,
      {
        width: 390,
        height: 844,
      },
    );
    const zip = path.join(ARTIFACTS, 'notion-export.zip');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(zip, await zipOf(NOTION_FILES));
    await page.getByLabel('Export (ZIP)').setInputFiles(zip);
    await page.getByLabel('Exported from').selectOption('notion');
    await page.getByLabel('Into folder').fill('notion');
    await page.getByLabel('Publish the imported pages').check();
    await page.getByRole('button', { name: 'Import' }).focus();
    await page.keyboard.press('Enter');
    const report = page.getByRole('status', { name: 'Import report' });
    await report.getByText('Imported 4 pages and 1 upload from notion').waitFor({ timeout: 30_000 });
    await report.getByText('Dropped (1)').waitFor();
    expect(await report.getByText(/movie\.mp4: Unsupported file type/).count()).toBe(1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'import-report-390.png'), fullPage: true });
    expect(await seriousA11yViolations(page), 'import').toEqual([]);
    const res = await app.server.request(
      'GET',
      `/api/v1/content/${app.ws.slug}/notion/team-wiki/tasks/index.md`,
      {
        token: app.owner.token,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('published');
    await context.close();
  }, 120_000);

  it('says which navigation the site follows and lets an admin choose another', async () => {
    const { context, page } = await signedInTab(
      app.browser,
      app.server,
      app.owner,
      `/settings/w/${app.ws.slug}/general`,
    );
    const section = page.getByRole('region', { name: 'Site navigation' });
    await section.getByText('The sidebar follows folders and page order').waitFor();
    await section.getByLabel('Navigation to follow').selectOption('mkdocs');
    await section.getByRole('status').filter({ hasText: 'Navigation saved' }).waitFor();
    await section.getByText('No mkdocs files were found; the site follows the folders').waitFor();
    await section.getByText('The sidebar follows folders and page order').waitFor();
    const stored = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/admin/settings`, {
      token: app.owner.token,
    });
    expect(stored.body.nav_source).toBe('mkdocs');
    await section.screenshot({ path: path.join(ARTIFACTS, 'navigation-settings.png') });
    expect(await seriousA11yViolations(page, '.theme-preview'), 'navigation').toEqual([]);
    await context.close();
  }, 90_000);

  it('shows a workspace from MkDocs with its nav: section pages as the group links, usable at 390 px', async () => {
    const root = path.join(app.server.dataDir, 'workspaces', app.ws.id);
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    };
    const page = (title: string) => `---\ntitle: ${title}\nstatus: published\n---\n\n${title} text.\n`;
    write(
      'mkdocs.yml',
      'site_name: Demo\nnav:\n  - Home: index.md\n  - Setup:\n      - setup/index.md\n      - Install it: setup/install.md\n  - Reference:\n      - ref/api.md\n',
    );
    write('docs/index.md', page('Welcome'));
    write('docs/setup/index.md', page('Setup'));
    write('docs/setup/install.md', page('Install'));
    write('docs/ref/api.md', page('API'));
    await app.server.request('PUT', `/api/v1/workspaces/${app.ws.id}/admin/settings`, {
      token: app.owner.token,
      body: { public_site: true, nav_source: 'mkdocs' },
    });
    await app.server.request('GET', `/api/v1/content/${app.ws.slug}/docs/ref/api.md`, {
      token: app.owner.token,
    });
    for (const width of [1280, 390]) {
      const tab = await signedInTab(
        app.browser,
        app.server,
        app.owner,
        `/p/${app.ws.slug}/docs/setup/install`,
        {
          width,
          height: 844,
        },
      );
      const nav = tab.page.locator('#site-nav');
      if (width === 390) await tab.page.getByRole('button', { name: 'Menu' }).click();
      await nav.getByRole('link', { name: 'Install it' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Setup' }).count()).toBe(1);
      expect(await nav.getByText('Setup', { exact: true }).count()).toBe(1);
      await tab.page.screenshot({ path: path.join(ARTIFACTS, `mkdocs-nav-${width}.png`) });
      expect(await seriousA11yViolations(tab.page), `site ${width}`).toEqual([]);
      await tab.context.close();
    }
  }, 120_000);
});
