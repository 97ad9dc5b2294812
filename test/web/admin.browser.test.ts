/**
 * Workspace administration in headless Chromium against a real server: the settings
 * screen changes the published site, the members screen changes and removes roles and
 * explains the last Super Admin, and members who are not admins get a clear refusal.
 */
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';
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
    expect(await seriousA11yViolations(page), 'settings').toEqual([]);
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
    await context.close();
  }, 90_000);

  async function signedInSettings(section: string) {
    const tab = await app.openWorkspace();
    await tab.page.goto(`${app.server.url}/settings/w/${app.ws.slug}/${section}`);
    return tab;
  }
});
