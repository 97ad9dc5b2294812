/**
 * Change requests in headless Chromium against a real server: an editor opens one from the
 * page editor's "Edit in a change request", edits the page inside it, a second user reviews
 * and approves it, and the merge is made from the web app, then checked through the API.
 * Also at phone width (390 px), by keyboard, with axe.
 */
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ARTIFACTS, describeInChromium, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';

describeInChromium('web app: change requests', () => {
  const app = useBrowserApp({ owner: { name: 'Olive Owner' } });
  let editor: TestUser;
  let reviewer: TestUser;

  beforeAll(async () => {
    await app.createPage('guide.md', { title: 'Guide', body: 'Install the tool.\nRun it.\n', publish: true });
    editor = await registerUser(app.server, { name: 'Eddie Editor' });
    reviewer = await registerUser(app.server, { name: 'Rita Reviewer' });
    await grantRole(app.server, app.ws, editor, 'editor');
    await grantRole(app.server, app.ws, reviewer, 'editor');
    const settings = await app.server.request('PUT', `/api/v1/workspaces/${app.ws.id}/admin/settings`, {
      token: app.owner.token,
      body: { required_approvals: 1 },
    });
    expect(settings.status).toBe(200);
  });

  const liveGuide = async () =>
    (await app.server.request('GET', `/api/v1/content/${app.ws.slug}/guide.md`, { token: app.owner.token }))
      .body.content as string;

  it('is opened from the editor, edited, reviewed by a second user and merged from the web app', async () => {
    const { context, page } = await app.openWorkspace('guide.md', { as: editor });
    await page.getByRole('link', { name: 'Change requests' }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'change-request-entry.png') });
    await page.getByRole('link', { name: 'Edit in a change request' }).click();
    await page.getByLabel('Title').fill('Explain the install');
    await page.getByLabel('Description').fill('Adds the missing step.');
    await page.getByRole('button', { name: 'Open change request' }).click();
    await page.waitForURL(/\/change-requests\/1\/edit\/guide\.md$/);

    const text = page.getByRole('textbox', { name: 'Editor' });
    await expect.poll(() => text.inputValue()).toContain('Install the tool.');
    await text.fill('Install the tool with npm.\nRun it.\n');
    await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
    await page.getByRole('button', { name: 'Save in change request' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'change-request-edit.png') });
    expect(await seriousA11yViolations(page), 'editing in a request').toEqual([]);
    expect(await liveGuide()).not.toContain('with npm');

    await page.getByRole('link', { name: 'Back to the change request' }).click();
    await page
      .getByRole('region', { name: 'Diff of guide.md' })
      .getByText('+Install the tool with npm.')
      .waitFor();
    // Not enough approvals yet: the editor cannot merge.
    expect(await page.getByRole('button', { name: 'Merge' }).isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'change-request-diff.png'), fullPage: true });
    expect(await seriousA11yViolations(page), 'request').toEqual([]);
    await context.close();

    // A second user reviews it by keyboard at phone width.
    const second = await app.openWorkspace(undefined, { as: reviewer, width: 390, height: 844 });
    await second.page.goto(`${app.server.url}/w/${app.ws.slug}/change-requests`);
    await second.page.getByRole('link', { name: '#1 Explain the install' }).click();
    await second.page.getByRole('region', { name: 'Diff of guide.md' }).waitFor();
    await second.page.getByLabel('Approve').focus();
    await second.page.keyboard.press('Space');
    await second.page.getByLabel('Review', { exact: true }).focus();
    await second.page.keyboard.type('Clear and correct.');
    await second.page.getByLabel('Page', { exact: true }).selectOption('guide.md');
    await second.page.getByLabel('Line', { exact: true }).fill('1');
    await second.page.getByLabel('Line comment').fill('Say which npm version.');
    await second.page.getByRole('button', { name: 'Submit review' }).focus();
    await second.page.keyboard.press('Enter');
    await second.page.getByText('Rita Reviewer: Approved').waitFor();
    await second.page.getByText('guide.md, line 1: Say which npm version.').waitFor();
    const width = await second.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await second.page.screenshot({
      path: path.join(ARTIFACTS, 'change-request-review-390.png'),
      fullPage: true,
    });
    expect(await seriousA11yViolations(second.page), 'review at 390 px').toEqual([]);
    await second.context.close();

    // Now the author can merge it.
    const third = await app.openWorkspace(undefined, { as: editor });
    await third.page.goto(`${app.server.url}/w/${app.ws.slug}/change-requests/1`);
    const merge = third.page.getByRole('button', { name: 'Merge' });
    await expect.poll(() => merge.isEnabled()).toBe(true);
    await merge.click();
    await third.page.getByRole('status').filter({ hasText: 'Change request merged.' }).waitFor();
    await third.context.close();

    expect(await liveGuide()).toBe('Install the tool with npm.\nRun it.\n');
    const cr = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/change-requests/1`, {
      token: app.owner.token,
    });
    expect(cr.body).toMatchObject({ status: 'merged', merged_by: editor.id, approvals: 1 });
    expect(cr.body.reviews).toEqual([
      expect.objectContaining({
        verdict: 'approve',
        reviewer: reviewer.id,
        comments: [{ page: 'guide.md', line: 1, body: 'Say which npm version.' }],
      }),
    ]);
  }, 240_000);

  it('lists requests by state and opens the workspace from the list screen', async () => {
    const { context, page } = await app.openWorkspace(undefined, { width: 390, height: 844 });
    await page.getByRole('button', { name: 'Pages' }).click();
    await page.getByRole('link', { name: 'Change requests' }).click();
    await page.getByRole('heading', { name: 'Change requests', level: 1 }).waitFor();
    await page.getByText('No open change request.').waitFor();
    await page.getByLabel('Show').selectOption('merged');
    await page.getByRole('link', { name: '#1 Explain the install' }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'change-requests-list-390.png'), fullPage: true });
    expect(await seriousA11yViolations(page), 'list at 390 px').toEqual([]);
    await context.close();
  }, 120_000);
});
