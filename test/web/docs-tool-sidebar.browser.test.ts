/**
 * The writers' sidebar of a workspace whose files come from MkDocs: it lists the pages in
 * mkdocs.yml's nav order with its labels (pages the nav leaves out under "Not in
 * navigation"), switches to the folders and back, works with the keyboard, at 390 px and
 * under axe; screenshots at 1280 and 390 px go to test-artifacts/web/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { ARTIFACTS, describeInChromium, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';
import { eventually } from '../helpers/eventually.js';
import { editor } from './editor-helpers.js';

const MKDOCS = `site_name: Handbook
nav:
  - Home: index.md
  - Setup:
      - setup/index.md
      - Installing it: setup/install.md
  - Zebra first: zebra.md
  - Reference:
      - reference/cli.md
  - Changelog: https://example.com/changelog
`;

const page = (title: string) => `---\ntitle: ${title}\n---\n\n# ${title}\n\n${title} text.\n`;

const FILES: Record<string, string> = {
  'mkdocs.yml': MKDOCS,
  'docs/index.md': page('Welcome'),
  'docs/setup/index.md': page('Setup overview'),
  'docs/setup/install.md': page('Install'),
  'docs/zebra.md': page('Zebra'),
  'docs/alpha.md': page('Alpha'),
  'docs/reference/cli.md': page('Command line'),
};

/** The visible rows' titles, in order, nested rows indented. */
async function sidebarRows(page: Page): Promise<string[]> {
  return page.locator('[role="tree"][aria-label="Pages"] [role="treeitem"]').evaluateAll((items) =>
    items.map((item) => {
      const level = Number(item.getAttribute('aria-level') ?? 1);
      const label = item.querySelector('.tree-label')?.firstChild?.textContent ?? '';
      return `${'  '.repeat(level - 1)}${label}`;
    }),
  );
}

describeInChromium('web app: the sidebar follows the docs tool', () => {
  const app = useBrowserApp({ workspace: 'handbook' });

  beforeAll(async () => {
    const root = path.join(app.server.dataDir, 'workspaces', app.ws.id);
    for (const [rel, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    // Reading the pages new on disk has the index catch up with the files.
    for (const rel of Object.keys(FILES).filter((f) => f.endsWith('.md'))) {
      await eventually(async () => {
        const res = await app.server.request('GET', `/api/v1/content/${app.ws.slug}/${rel}`, {
          token: app.owner.token,
        });
        return res.status === 200;
      }, 30_000);
    }
  });

  it("lists the pages in mkdocs.yml's nav order, and the folders on request", async () => {
    const { context, page } = await app.openWorkspace('docs/setup/install.md', { width: 1280, height: 800 });
    await editor(page).waitFor();
    const toggle = page.getByRole('group', { name: 'Order of the pages' });
    const navButton = toggle.getByRole('button', { name: 'MkDocs navigation' });
    expect(await navButton.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('treeitem', { name: 'Installing it' }).waitFor();
    expect(await sidebarRows(page)).toEqual([
      'Home',
      'Setup',
      '  Installing it',
      'Zebra first',
      'Reference',
      '  Command line',
      'Changelog',
      'Not in navigation',
    ]);
    // The open page is the current row.
    expect(await page.getByRole('treeitem', { name: 'Installing it' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-tool-sidebar-1280.png') });

    // The pages the nav leaves out can still be opened, with the keyboard alone.
    const rest = page.getByRole('treeitem', { name: 'Not in navigation' });
    expect(await rest.getAttribute('aria-expanded')).toBe('false');
    await rest.focus();
    await page.keyboard.press('ArrowRight');
    expect(await rest.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Alpha');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/docs/alpha.md`);
    await page.locator('.cm-line', { hasText: 'Alpha text.' }).waitFor();

    // A section with its own page: Enter opens the page, Left folds the section.
    const setup = page.getByRole('treeitem', { name: 'Setup', exact: true });
    await setup.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/docs/setup/index.md`);
    await setup.focus();
    await page.keyboard.press('ArrowLeft');
    expect(await setup.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('treeitem', { name: 'Installing it' }).count()).toBe(0);

    // Folders: the folder tree, and the choice is kept for the next visit.
    await toggle.getByRole('button', { name: 'Folders' }).click();
    await page.getByRole('treeitem', { name: 'docs' }).waitFor();
    expect(await page.getByRole('treeitem', { name: 'Zebra first' }).count()).toBe(0);
    await page.reload();
    await page.getByRole('treeitem', { name: 'docs' }).waitFor();
    expect(await toggle.getByRole('button', { name: 'Folders' }).getAttribute('aria-pressed')).toBe('true');
    await toggle.getByRole('button', { name: 'MkDocs navigation' }).click();
    await page.getByRole('treeitem', { name: 'Zebra first' }).waitFor();
    await context.close();
  }, 120_000);

  it('works in the drawer at 390 px', async () => {
    const { context, page } = await app.openWorkspace('docs/zebra.md', { width: 390, height: 844 });
    await editor(page).waitFor();
    await page.getByRole('button', { name: 'Pages' }).click();
    const tree = page.getByRole('tree', { name: 'Pages' });
    await tree.waitFor({ state: 'visible' });
    await page
      .locator('#sidebar')
      .evaluate((el) => Promise.all(el.getAnimations().map((animation) => animation.finished)));
    // The toggle fits the drawer.
    const fits = await page
      .locator('.sidebar-view-buttons')
      .evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-tool-sidebar-390.png') });
    await tree.getByRole('treeitem', { name: 'Home' }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/docs/index.md`);
    await context.close();
  }, 120_000);

  it('offers admins to publish the pages without a status, in one click', async () => {
    const { context, page } = await app.openWorkspace();
    await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/general`);
    const section = page.getByRole('region', { name: 'Site navigation' });
    await section.getByText('are drafts, and the site does not show them').waitFor();
    expect(await seriousA11yViolations(page, '.theme-preview')).toEqual([]);
    await section.getByRole('button', { name: 'Publish pages without a status' }).click();
    await section.getByText('Pages whose frontmatter has no status are published.').waitFor();
    const res = await app.server.request('GET', `/api/v1/content/${app.ws.slug}/docs/zebra.md`, {
      token: app.owner.token,
    });
    expect(res.body.status).toBe('published');
    await section.screenshot({ path: path.join(ARTIFACTS, 'docs-tool-publish-hint.png') });
    await context.close();
  }, 60_000);

  it("shows a section's toggle where a folder's is on the published site", async () => {
    const res = await app.server.request('POST', `/api/v1/workspaces/${app.ws.id}/publish`, {
      token: app.owner.token,
    });
    expect(res.status).toBe(200);
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const tab = await context.newPage();
    const opened = await tab.goto(`${app.server.url}/p/${app.ws.slug}/docs/setup/install`);
    expect(opened?.status()).toBe(200);
    // Setup has its own page (a link beside its toggle), Reference has none (its summary is the title).
    const toggles = await tab.evaluate(() => {
      const nav = document.querySelector('#site-nav')!;
      const box = (el: Element) => el.getBoundingClientRect();
      const group = nav.querySelector('.nav-group > details > summary')!;
      const folder = nav.querySelector('li:not(.nav-group) > details > summary')!;
      return {
        group: { right: box(group).right, marker: getComputedStyle(group).listStyleType },
        folder: {
          right: box(folder).right,
          marker: getComputedStyle(folder).listStyleType,
          chevron: getComputedStyle(folder, '::after').content,
        },
      };
    });
    expect(toggles.group.marker).toBe('none');
    expect(toggles.folder).toMatchObject({ marker: 'none', chevron: '"▸"' });
    expect(Math.abs(toggles.group.right - toggles.folder.right)).toBeLessThan(1);
    await tab.screenshot({ path: path.join(ARTIFACTS, 'docs-tool-site-1280.png') });
    await context.close();
  }, 60_000);
});
