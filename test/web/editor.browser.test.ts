/**
 * The page editor in headless Chromium against a real server: what the writer
 * types reaches the file byte for byte, opening a page writes nothing, an edit
 * changes only the bytes the writer changed (CRLF, BOM, trailing blanks and a
 * commented frontmatter survive), and a viewer cannot type.
 */
import { expect, it } from 'vitest';
import { commitFile } from '../helpers/git-fixtures.js';
import path from 'node:path';
import { describeInChromium, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';
import { registerUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import {
  commits,
  countPuts,
  cursorAtEndOf,
  editor,
  fileBytes,
  saveStatus,
  waitSaved,
} from './editor-helpers.js';

/** A page as a writer's Windows editor left it: BOM, CRLF, a commented frontmatter, trailing blanks. */
const FIDELITY_FILE =
  '\uFEFF---\r\n' +
  '# Kept by hand: do not reorder\r\n' +
  'id: 01HZY3K8Q6W3N6V0E4M2B7C9DF\r\n' +
  'title: Fidelity\r\n' +
  'zeta: last # after title on purpose\r\n' +
  'alpha: first\r\n' +
  '---\r\n' +
  '\r\n' +
  'Line one with two trailing blanks  \r\n' +
  'Line two\r\n' +
  'Line three\r\n';

describeInChromium('web app: the editor', () => {
  const app = useBrowserApp({ owner: true });

  /** Writes the fidelity page as a git commit in the working tree, indexed and settled. */
  async function seedFidelityPage(name: string): Promise<void> {
    const dir = path.join(app.server.dataDir, 'workspaces', app.ws.id);
    const text = FIDELITY_FILE.replace(
      '01HZY3K8Q6W3N6V0E4M2B7C9DF',
      `01HZY3K8Q6W3N6V0E4M2B7C9${name === 'a' ? 'DA' : 'DB'}`,
    );
    await commitFile(dir, `${name}.md`, text);
    const read = await app.server.request('GET', `/api/v1/content/${app.ws.slug}/${name}.md`, {
      token: app.owner.token,
    });
    expect(read.status).toBe(200);
    // Any commit the server makes after indexing lands within its debounce.
    await new Promise((r) => setTimeout(r, 2500));
  }

  it('creates a page, saves what is typed, and stores exactly those bytes', async () => {
    const { context, page } = await app.openWorkspace();
    await page.getByRole('button', { name: 'New page' }).click();
    await page.getByLabel('Title').fill('Release notes');
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/release-notes.md`);
    await page
      .getByRole('tree', { name: 'Pages' })
      .getByRole('treeitem', { name: 'Release notes' })
      .waitFor();

    await editor(page).click();
    const typed = '# Release 1.0\n\nFirst line, typed in the browser.\nSecond line: 100% done.';
    await page.keyboard.type(typed);
    await expect.poll(() => saveStatus(page).textContent()).not.toBe('Saved');
    await waitSaved(page);

    const file = fileBytes(app.server, app.ws.id, 'release-notes.md').toString('utf8');
    expect(JSON.stringify(file)).toMatch(
      /^"---\\nid: [0-9A-Z]{26}\\ntitle: Release notes\\nstatus: draft\\n---\\n/,
    );
    expect(file.endsWith(`---\n${typed}`), JSON.stringify(file)).toBe(true);
    const api = await app.server.request('GET', `/api/v1/content/${app.ws.slug}/release-notes.md`, {
      token: app.owner.token,
    });
    expect(api.body.content).toBe(typed);
    await context.close();
  }, 90_000);

  it('opens and leaves a CRLF page with a BOM and a commented frontmatter without writing anything', async () => {
    await seedFidelityPage('a');
    const before = fileBytes(app.server, app.ws.id, 'a.md');
    const log = await commits(app.server, app.ws.id, 'a.md');

    const { context, page } = await app.openWorkspace('a.md');
    const puts = countPuts(page);
    await page.locator('.cm-line', { hasText: 'Line three' }).waitFor();
    await editor(page).click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Control+s');
    await page.getByRole('treeitem', { name: 'Welcome to Folio' }).click();
    await page.waitForURL(/index\.md$/);
    await new Promise((r) => setTimeout(r, 2500));

    expect(puts.count).toBe(0);
    expect(fileBytes(app.server, app.ws.id, 'a.md').equals(before)).toBe(true);
    expect(await commits(app.server, app.ws.id, 'a.md')).toEqual(log);
    await context.close();
  }, 90_000);

  it('changes only the bytes of the one line the writer edits', async () => {
    await seedFidelityPage('b');
    const before = fileBytes(app.server, app.ws.id, 'b.md').toString('utf8');

    const { context, page } = await app.openWorkspace('b.md');
    await cursorAtEndOf(page, 'Line two');
    await page.keyboard.type(', edited');
    await waitSaved(page);

    const after = fileBytes(app.server, app.ws.id, 'b.md').toString('utf8');
    expect(after).toBe(before.replace('Line two\r\n', 'Line two, edited\r\n'));
    expect(after.startsWith('\uFEFF---\r\n# Kept by hand')).toBe(true);
    await context.close();
  }, 90_000);

  it('keeps a viewer out of the editor: read only, nothing typed, nothing sent', async () => {
    const viewer = await registerUser(app.server);
    await grantRole(app.server, app.ws, viewer, 'viewer');
    await app.server.request('POST', `/api/v1/content/${app.ws.slug}/readonly.md`, {
      token: app.owner.token,
      body: { title: 'Read only', body: 'Nothing to change here.\n' },
    });
    const { context, page } = await app.openWorkspace('readonly.md', { as: viewer });
    const puts = countPuts(page);
    await page.locator('.cm-line', { hasText: 'Nothing to change' }).waitFor();
    expect(await editor(page).getAttribute('aria-readonly')).toBe('true');
    expect(await page.getByRole('button', { name: 'New page' }).count()).toBe(0);
    await page.locator('.cm-line', { hasText: 'Nothing to change' }).click();
    await page.keyboard.type('vandalism');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await editor(page).textContent()).toBe('Nothing to change here.');
    expect(puts.count).toBe(0);
    await context.close();
  }, 90_000);

  it('has no serious or critical WCAG 2.1 AA violations on the workspace and the editor', async () => {
    const { context, page } = await app.openWorkspace();
    await page.getByRole('tree', { name: 'Pages' }).waitFor();
    expect(await seriousA11yViolations(page), 'workspace').toEqual([]);
    await page.getByRole('treeitem', { name: 'Welcome to Folio' }).click();
    await editor(page).waitFor();
    expect(await seriousA11yViolations(page), 'editor').toEqual([]);
    await context.close();
  }, 120_000);
});
