/**
 * The comments panel in headless Chromium against a real server: threads are
 * started, answered (live in the other writer's tab), resolved and reopened;
 * a commenter comments but cannot type in the editor and a viewer cannot
 * comment; `@` completes members' handles; the open panel passes axe-core.
 */
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInChromium, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import { countPuts, editor } from './editor-helpers.js';

const panel = (page: Page) => page.getByRole('region', { name: 'Comments' });
const thread = (page: Page, text: string) => panel(page).getByRole('article').filter({ hasText: text });

/** Opens the comments panel from the page header. */
async function openComments(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Comments' }).click();
  await panel(page).waitFor();
}

describeInChromium('web app: comments', () => {
  const app = useBrowserApp({ owner: { name: 'Olive Owner' } });
  let commenter: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    commenter = await registerUser(app.server, { name: 'Cora Commenter' });
    viewer = await registerUser(app.server, { name: 'Vic Viewer' });
    await grantRole(app.server, app.ws, commenter, 'commenter');
    await grantRole(app.server, app.ws, viewer, 'viewer');
    await app.createPage('guide.md', { title: 'Guide', body: 'The introduction.\n' });
    const seeded = await app.server.request('POST', `/api/v1/workspaces/${app.ws.id}/comments`, {
      token: app.owner.token,
      body: { page: 'guide.md', body: 'Is the title right?' },
    });
    expect(seeded.status).toBe(201);
  });

  it('starts a thread by keyboard, gets a live reply, resolves it under "Resolved" and reopens it', async () => {
    const owner = await app.openWorkspace('guide.md');
    await editor(owner.page).waitFor();
    // Keyboard only: the toggle opens the panel with focus in its comment box; Ctrl+Enter sends.
    await owner.page.getByRole('button', { name: 'Comments' }).focus();
    await owner.page.keyboard.press('Enter');
    await panel(owner.page).waitFor();
    const boxId = await owner.page.getByLabel('New comment').getAttribute('id');
    await expect.poll(() => owner.page.evaluate(() => document.activeElement?.id)).toBe(boxId);
    await owner.page.keyboard.type('Please check the introduction.');
    await owner.page.keyboard.press('Control+Enter');
    await thread(owner.page, 'Please check the introduction.').waitFor();
    expect(await owner.page.getByLabel('New comment').inputValue()).toBe('');

    const other = await app.openWorkspace('guide.md', { as: commenter });
    await openComments(other.page);
    const seen = thread(other.page, 'Please check the introduction.');
    expect(await seen.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    await seen.getByRole('button', { name: 'Reply' }).click();
    await other.page.getByLabel('Reply to Olive Owner').fill('Done, rewritten.');
    await seen.getByRole('button', { name: 'Reply' }).click();
    await seen.getByText('Done, rewritten.').waitFor();

    // The owner's open panel shows the reply without a reload (comment-changed over the socket).
    const mine = thread(owner.page, 'Please check the introduction.');
    await mine.getByText('Done, rewritten.').waitFor();

    await mine.getByRole('button', { name: 'Resolve' }).click();
    const resolved = panel(owner.page).locator('details', { hasText: 'Resolved (1)' });
    await resolved.waitFor();
    expect(await resolved.getAttribute('open')).toBeNull();
    expect(await thread(owner.page, 'Please check the introduction.').isVisible()).toBe(false);
    await resolved.locator('summary').click();
    await thread(owner.page, 'Please check the introduction.')
      .getByRole('button', { name: 'Reopen' })
      .click();
    await panel(owner.page).getByText('Resolved (1)').waitFor({ state: 'detached' });
    await thread(owner.page, 'Please check the introduction.')
      .getByRole('button', { name: 'Resolve' })
      .waitFor();

    const api = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/comments?page=guide.md`, {
      token: app.owner.token,
    });
    expect(
      api.body.data.find((t: { body: string }) => t.body === 'Please check the introduction.'),
    ).toMatchObject({ resolved: false, replies: [{ body: 'Done, rewritten.' }] });
    await other.context.close();
    await owner.context.close();
  }, 120_000);

  it('lets a commenter comment, edit and delete their own comment but not type in the editor', async () => {
    const { context, page } = await app.openWorkspace('guide.md', { as: commenter });
    const puts = countPuts(page);
    await page.locator('.cm-line', { hasText: 'The introduction.' }).waitFor();
    expect(await editor(page).getAttribute('aria-readonly')).toBe('true');
    await page.locator('.cm-line', { hasText: 'The introduction.' }).click();
    await page.keyboard.type('vandalism');

    await openComments(page);
    await page.getByLabel('New comment').fill('A commenter’s note');
    await panel(page).getByRole('button', { name: 'Comment', exact: true }).click();
    const note = thread(page, 'A commenter’s note');
    await note.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit comment').fill('A commenter’s edited note');
    await panel(page).getByRole('button', { name: 'Save' }).click();
    await thread(page, 'A commenter’s edited note').getByText('(edited)').waitFor();
    // Someone else's thread offers no Edit or Delete.
    expect(
      await thread(page, 'Is the title right?')
        .getByRole('button', { name: /Edit|Delete/ })
        .count(),
    ).toBe(0);
    await thread(page, 'A commenter’s edited note').getByRole('button', { name: 'Delete' }).click();
    await panel(page).getByRole('button', { name: 'Confirm delete' }).click();
    await thread(page, 'A commenter’s edited note').waitFor({ state: 'detached' });

    expect(await editor(page).textContent()).toBe('The introduction.');
    expect(puts.count).toBe(0);
    await context.close();
  }, 120_000);

  it('offers a viewer no comment box, reply or resolve', async () => {
    const { context, page } = await app.openWorkspace('guide.md', { as: viewer });
    await openComments(page);
    await thread(page, 'Is the title right?').waitFor();
    await panel(page).getByText('Your role lets you read comments but not add them.').waitFor();
    expect(await page.getByLabel('New comment').count()).toBe(0);
    expect(
      await panel(page)
        .getByRole('button', { name: /Reply|Resolve|Edit|Delete/ })
        .count(),
    ).toBe(0);
    await context.close();
  }, 90_000);

  it('completes an @ mention from the members and stores it as a mention', async () => {
    const { context, page } = await app.openWorkspace('guide.md');
    await openComments(page);
    const box = page.getByLabel('New comment');
    await box.click();
    await page.keyboard.type('Thanks @cora');
    const option = page.getByRole('option', { name: /Cora Commenter/ });
    await option.waitFor();
    expect(await box.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
    await page.keyboard.press('Enter');
    expect(await box.inputValue()).toBe(`Thanks @${commenter.handle} `);
    await page.keyboard.type('for the rewrite.');
    await panel(page).getByRole('button', { name: 'Comment', exact: true }).click();
    await thread(page, 'for the rewrite.').waitFor();

    const api = await app.server.request('GET', `/api/v1/workspaces/${app.ws.id}/comments?page=guide.md`, {
      token: app.owner.token,
    });
    const stored = api.body.data.find((t: { body: string }) => t.body.includes('for the rewrite.'));
    expect(stored.body).toBe(`Thanks @${commenter.handle} for the rewrite.`);
    expect(stored.mentions).toEqual([{ id: commenter.id, name: 'Cora Commenter', handle: commenter.handle }]);
    await context.close();
  }, 90_000);

  it('has no serious or critical WCAG 2.1 AA violations with the comments panel open', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await app.openWorkspace('guide.md', { colorScheme });
      await openComments(page);
      await thread(page, 'Is the title right?').waitFor();
      await page.getByLabel('New comment').click();
      await page.keyboard.type('@o');
      await panel(page).getByRole('option').first().waitFor();
      expect(await seriousA11yViolations(page), colorScheme).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
