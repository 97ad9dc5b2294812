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
});
