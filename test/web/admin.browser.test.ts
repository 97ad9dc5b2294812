/**
 * Workspace administration in headless Chromium against a real server: the settings
 * screen changes the published site, the members screen changes and removes roles and
 * explains the last Super Admin, and members who are not admins get a clear refusal.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  newTab,
  seriousA11yViolations,
  useBrowserApp,
} from '../helpers/browser.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';

describeInChromium('web app: workspace administration', () => {
  const app = useBrowserApp({ owner: { name: 'Olive Owner' } });
  let editorUser: TestUser;

  beforeAll(async () => {
    await app.createPage('guide.md', { title: 'Guide', body: 'Read me.\n', publish: true });
    editorUser = await registerUser(app.server, { name: 'Eddie Editor' });
    await grantRole(app.server, app.ws, editorUser, 'editor');
  });

  const settingsUrl = () => `/api/v1/workspaces/${app.ws.id}/admin/settings`;

  it('saves the site settings, and the published site shows the new title and theme', async () => {
    const { context, page } = await app.openWorkspace();
    await page.getByRole('link', { name: 'Workspace settings' }).click();
    await page.waitForURL(`${app.server.url}/settings/w/${app.ws.slug}/general`);
    await page.getByLabel('Site title').fill('Handbook');
    await page.getByLabel('Theme').selectOption('forest');
    // The choice shows a sample page rendered in that theme.
    const sample = page.frameLocator('iframe[title="Sample page in the forest theme"]');
    await sample.getByRole('heading', { name: 'Getting started' }).waitFor();
    expect(await page.locator('iframe.theme-preview').getAttribute('srcdoc')).toMatch(/theme-forest-/);
    await page.getByLabel('Anyone can read the published site').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();

    const stored = await app.server.request('GET', settingsUrl(), { token: app.owner.token });
    expect(stored.body).toMatchObject({ site_title: 'Handbook', theme: 'forest', public_site: true });
    const site = await fetch(`${app.server.url}/p/${app.ws.slug}/guide`);
    const html = await site.text();
    expect(site.status).toBe(200);
    expect(html).toContain('Handbook');
    expect(html).toMatch(/theme-forest-/);
    // axe cannot enter the script-less sample frame; the page around it is checked.
    expect(await seriousA11yViolations(page, '.theme-preview'), 'settings').toEqual([]);
    await context.close();
  }, 90_000);

  it('changes a role and removes a member; the last Super Admin is explained, not offered', async () => {
    const { context, page } = await signedInSettings('members');
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByText('Eddie Editor', { exact: true }).waitFor();
    const ownerRole = members.getByLabel('Role of Olive Owner');
    expect(await ownerRole.isDisabled()).toBe(true);
    await members.getByText('The last Super Admin', { exact: false }).waitFor();

    await members.getByLabel('Role of Eddie Editor').selectOption('commenter');
    const roleOf = async () => {
      const list = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/admin/members`, {
        token: app.owner.token,
      });
      return list.body.data.find((m: { user_id: string }) => m.user_id === editorUser.id)?.role ?? null;
    };
    await expect.poll(roleOf).toBe('commenter');
    expect(await seriousA11yViolations(page), 'members').toEqual([]);

    await members.getByRole('button', { name: 'Remove…' }).click();
    await members.getByRole('button', { name: 'Remove Eddie Editor' }).click();
    await expect.poll(roleOf).toBe(null);
    await expect.poll(() => members.getByText('Eddie Editor', { exact: true }).count()).toBe(0);
    await context.close();
  }, 90_000);

  it('shows a member who is not an admin that they have no access, and no link to it', async () => {
    const writer = await registerUser(app.server, { name: 'Wendy Writer' });
    await grantRole(app.server, app.ws, writer, 'editor');
    const { context, page } = await app.openWorkspace(undefined, { as: writer });
    await page.getByRole('tree', { name: 'Pages' }).waitFor();
    expect(await page.getByRole('link', { name: 'Workspace settings' }).count()).toBe(0);
    await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/members`);
    await page.getByRole('heading', { name: "You don't have access" }).waitFor();
    expect(await page.getByRole('combobox').count()).toBe(0);
    // The direct address of the Git screen, with its secrets, is refused the same way.
    await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/git`);
    await page.getByRole('heading', { name: "You don't have access" }).waitFor();
    expect(await page.getByLabel('Webhook secret').count()).toBe(0);
    expect(await seriousA11yViolations(page), 'no access').toEqual([]);
    await context.close();
  }, 90_000);

  it('invites by email without mail set up: the link is shown to copy, and a second person accepts it', async () => {
    const { context, page } = await signedInSettings('invitations');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const email = `guest-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Role').selectOption('commenter');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const link = await page.getByLabel('Invitation link').inputValue();
    expect(new URL(link).pathname).toMatch(/^\/invite\/.+/);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await page.locator('.item-list').getByText(email).waitFor();
    expect(await seriousA11yViolations(page), 'invitations').toEqual([]);

    // The invitee follows the link in a browser of their own and registers.
    const guest = await newTab(app.browser);
    await guest.page.goto(app.server.url + new URL(link).pathname);
    await guest.page.getByRole('link', { name: 'Create an account' }).click();
    await guest.page.getByLabel('Name').fill('Gus Guest');
    await guest.page.getByLabel('Email').fill(email);
    await guest.page.getByLabel('Password').fill('correct horse battery');
    await guest.page.getByLabel('I accept the terms').check();
    await guest.page.getByRole('button', { name: 'Create account' }).click();
    await guest.page.waitForURL(`${app.server.url}/w/${app.ws.slug}`, { timeout: 20_000 });
    await guest.context.close();

    const members = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/admin/members`, {
      token: app.owner.token,
    });
    expect(members.body.data.find((m: { email: string }) => m.email === email)?.role).toBe('commenter');
    await page.reload();
    await page.getByText('No invitation is waiting to be accepted.').waitFor();
    await context.close();
  }, 120_000);

  it('revokes a pending invitation', async () => {
    const email = `later-${Date.now()}@example.com`;
    await app.server.request('POST', `/api/v1/workspaces/${app.ws.id}/invitations`, {
      token: app.owner.token,
      body: { email, role: 'editor' },
    });
    const { context, page } = await signedInSettings('invitations');
    await page.getByRole('button', { name: `Revoke the invitation for ${email}` }).click();
    await expect.poll(() => page.getByText(email).count()).toBe(0);
    const pending = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/invitations`, {
      token: app.owner.token,
    });
    expect(pending.body.data.map((i: { email: string }) => i.email)).not.toContain(email);
    await context.close();
  }, 90_000);

  it('creates a share link with a limit, another user joins through it, and its use is counted', async () => {
    const { context, page } = await signedInSettings('share-links');
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByLabel('Maximum uses').fill('3');
    await page.getByRole('button', { name: 'Create link' }).click();
    const link = await page.getByLabel('Share link', { exact: true }).inputValue();
    expect(await seriousA11yViolations(page), 'share links').toEqual([]);

    const reader = await registerUser(app.server, { name: 'Rita Reader' });
    const tab = await app.openWorkspace(undefined, { as: reader });
    await tab.page.goto(app.server.url + new URL(link).pathname);
    await tab.page.waitForURL(`${app.server.url}/w/${app.ws.slug}`, { timeout: 20_000 });
    await tab.context.close();

    await page.reload();
    await page.getByText('Used 1 of 3 times', { exact: false }).waitFor();
    await page.getByRole('button', { name: /^Revoke the Viewer link/ }).click();
    await page.getByText('No share link is active.').waitFor();
    const links = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/share-links`, {
      token: app.owner.token,
    });
    expect(links.body.data).toEqual([]);
    await context.close();
  }, 120_000);

  it('creates versions, makes one the default and deletes another', async () => {
    const { context, page } = await signedInSettings('versions');
    for (const [slug, name] of [
      ['v1', 'Version 1'],
      ['v2', 'Version 2'],
    ]) {
      await page.getByLabel('Version slug').fill(slug!);
      await page.getByLabel('Version name').fill(name!);
      await page.getByRole('button', { name: 'Create version' }).click();
      await page.getByText(name!, { exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Make Version 2 the default' }).click();
    const versions = async () =>
      (
        await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/versions`, {
          token: app.owner.token,
        })
      ).body.data as { slug: string; is_default: boolean }[];
    await expect.poll(async () => (await versions()).find((v) => v.is_default)?.slug).toBe('v2');
    expect(await seriousA11yViolations(page), 'versions').toEqual([]);

    await page.getByRole('button', { name: 'Delete Version 1…' }).click();
    await page.getByRole('button', { name: 'Delete Version 1', exact: true }).click();
    await expect.poll(async () => (await versions()).map((v) => v.slug)).toEqual(['v2']);
    const opened = page.getByRole('link', { name: 'Open on site' });
    await expect.poll(() => opened.count()).toBe(1);
    expect(await opened.getAttribute('href')).toBe(`/p/${app.ws.slug}/v/v2/`);
    await context.close();
  }, 120_000);

  it('sets a custom domain, shows the TXT record to create, and removes it', async () => {
    const { context, page } = await signedInSettings('domain');
    await page.getByLabel('Domain', { exact: true }).fill('docs.example.com');
    await page.getByRole('button', { name: 'Set domain' }).click();
    await page.getByRole('heading', { name: 'docs.example.com' }).waitFor();
    expect(await page.getByLabel('Record name').inputValue()).toBe('_folio-verify.docs.example.com');
    const stored = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/custom-domain`, {
      token: app.owner.token,
    });
    expect(await page.getByLabel('Record value').inputValue()).toBe(stored.body.verification.value);
    await page.getByRole('status').filter({ hasText: 'Waiting for DNS' }).waitFor();
    expect(await seriousA11yViolations(page), 'custom domain').toEqual([]);

    await page.getByRole('button', { name: 'Remove domain…' }).click();
    await page.getByRole('button', { name: 'Remove docs.example.com' }).click();
    await page.getByRole('button', { name: 'Set domain' }).waitFor();
    const gone = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/custom-domain`, {
      token: app.owner.token,
    });
    expect(gone.status).toBe(404);
    await context.close();
  }, 90_000);

  it('downloads the static site as a ZIP', async () => {
    const { context, page } = await signedInSettings('export');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the site as a ZIP' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(await seriousA11yViolations(page), 'export').toEqual([]);
    await context.close();
  }, 90_000);

  it('lists the activity feed, filtered by person and action, and pages back through it', async () => {
    for (let i = 0; i < 30; i++) await app.createPage(`notes/n${i}.md`, { title: `Note ${i}` });
    const other = await registerUser(app.server, { name: 'Pat Other' });
    await grantRole(app.server, app.ws, other, 'editor');
    await app.server.request('POST', `/api/v1/content/${app.ws.slug}/by-pat.md`, {
      token: other.token,
      body: { title: 'By Pat' },
    });
    const { context, page } = await signedInSettings('activity');
    const feed = page.getByRole('region', { name: 'Activity' });
    const rows = feed.locator('.item');
    await expect.poll(() => rows.count()).toBe(25);
    await feed.getByRole('button', { name: 'Show older activity' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(25);

    await feed.getByLabel('Person').selectOption({ label: 'Pat Other' });
    // The list is empty while the filtered page loads, so it is waited for by Pat's own row.
    await expect
      .poll(async () => (await rows.allTextContents()).some((row) => row.includes('by-pat.md')))
      .toBe(true);
    await expect.poll(() => rows.count()).toBeLessThan(25);
    const patsRows = await rows.allTextContents();
    expect(patsRows.every((row) => row.startsWith('Pat Other · '))).toBe(true);
    expect(patsRows.some((row) => row.startsWith('Pat Other · Page created · by-pat.md'))).toBe(true);

    await feed.getByLabel('Person').selectOption({ label: 'Olive Owner' });
    await feed.getByLabel('Action').selectOption('settings_updated');
    await expect
      .poll(async () => (await rows.allTextContents()).map((row) => row.slice(0, 30)))
      .toEqual(expect.arrayContaining(['Olive Owner · Settings changed']));
    const settingsRows = await rows.allTextContents();
    expect(settingsRows.every((row) => row.startsWith('Olive Owner · Settings changed'))).toBe(true);
    expect(await seriousA11yViolations(page), 'activity').toEqual([]);
    await context.close();
  }, 120_000);

  it('shows the quality score and findings, and a finding opens the editor at its line', async () => {
    await app.createPage('broken.md', {
      title: 'Broken',
      description: 'A page with a dead link.',
      body: 'First line.\n\nSee [the missing page](nowhere.md) for more.\n',
    });
    const { context, page } = await signedInSettings('quality');
    const report = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/quality`, {
      token: app.owner.token,
    });
    await page.getByText(String(Math.round(report.body.score)), { exact: true }).waitFor();
    const deadLinks = page.locator('.issue-count').filter({ hasText: 'Links to missing pages' });
    expect(await deadLinks.locator('dd').textContent()).toBe(String(report.body.issue_counts.dead_link));
    expect(await seriousA11yViolations(page), 'quality').toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'quality-1280-light.png'), fullPage: true });

    await page.getByRole('link', { name: /nowhere\.md.*\(line 3\)/ }).click();
    await page.waitForURL(`${app.server.url}/w/${app.ws.slug}/broken.md?line=3`);
    await expect.poll(() => page.locator('.cm-activeLine').textContent()).toContain('See [the missing page]');
    await context.close();
  }, 90_000);

  it('saves the settings screen at 1280 and 390 px, light and dark, without horizontal scrolling', async () => {
    for (const width of [1280, 390]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context, page } = await app.openWorkspace(undefined, { width, colorScheme });
        await page.goto(`${app.server.url}/settings/w/${app.ws.slug}/general`);
        await page.getByRole('button', { name: 'Save settings' }).waitFor();
        await page
          .frameLocator('iframe.theme-preview')
          .getByRole('heading', { name: 'Getting started' })
          .waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${width} ${colorScheme}`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(ARTIFACTS, `settings-${width}-${colorScheme}.png`) });
        await context.close();
      }
    }
  }, 120_000);

  async function signedInSettings(section: string) {
    const tab = await app.openWorkspace();
    await tab.page.goto(`${app.server.url}/settings/w/${app.ws.slug}/${section}`);
    return tab;
  }
});
