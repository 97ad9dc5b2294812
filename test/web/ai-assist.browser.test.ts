/**
 * AI writing assistance in the editor, in headless Chromium against a real server that
 * talks to the fake AI provider: the suggestion for the selected text is shown as a diff,
 * Accept replaces exactly that text in the file, Discard and failures leave it alone, and
 * without a provider there is no AI button.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ARTIFACTS,
  describeInChromium,
  seriousA11yViolations,
  startAppServer,
  useBrowserApp,
} from '../helpers/browser.js';
import { startFakeAiServer, type FakeAiServer } from '../helpers/fake-ai-server.js';
import { cursorAtEndOf, editor, fileBytes, waitSaved } from './editor-helpers.js';

const SENTENCE = 'The tool is good.';
const BODY = `Intro line stays. ${SENTENCE}\nLast line stays.\n`;

/** Selects `SENTENCE`, which ends its line, with the keyboard. */
async function selectSentence(page: Page): Promise<void> {
  await cursorAtEndOf(page, SENTENCE);
  for (let i = 0; i < SENTENCE.length; i += 1) await page.keyboard.press('Shift+ArrowLeft');
}

const aiButton = (page: Page) => page.getByRole('button', { name: 'AI writing assistance' });

let fake: FakeAiServer;

describeInChromium('web app: AI writing assistance', () => {
  beforeAll(async () => {
    fake = await startFakeAiServer();
  });
  afterAll(() => fake.close());

  const app = useBrowserApp({
    owner: true,
    start: () =>
      startAppServer({
        env: { AI_PROVIDER: 'openai', AI_BASE_URL: fake.url, AI_API_KEY: 'sk-test', AI_MODEL: 'test-model' },
      }),
  });
  const file = (name: string) => fileBytes(app.server, app.ws.id, name).toString('utf8');

  it('shows the suggestion for the selection as a diff; Accept replaces exactly that text', async () => {
    await app.createPage('accept.md', { title: 'Accept', body: BODY });
    const before = file('accept.md');
    const { context, page } = await app.openWorkspace('accept.md', { colorScheme: 'dark' });
    await editor(page).waitFor();
    await selectSentence(page);
    await aiButton(page).click();
    await page.getByRole('menuitem', { name: 'Improve' }).click();

    const suggestion = page.getByRole('region', { name: 'AI suggestion' });
    const expected = `Fake improve answer for: ${SENTENCE}`;
    await suggestion.waitFor();
    // The fake keeps the sentence and puts words before it: one insertion, nothing removed.
    expect(await suggestion.locator('ins').allTextContents()).toEqual(['added: Fake improve answer for: ']);
    expect(await suggestion.locator('del').count()).toBe(0);
    expect(await suggestion.locator('.ai-diff').textContent()).toBe(`added: ${expected}`);
    expect(fake.requests.at(-1)?.body.messages.at(-1).content).toBe(SENTENCE);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'ai-suggestion-1280-dark.png') });

    await suggestion.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => file('accept.md'), { timeout: 20_000 }).not.toBe(before);
    await waitSaved(page);
    expect(file('accept.md')).toBe(before.replace(SENTENCE, expected));
    await context.close();
  }, 90_000);

  it('works from the keyboard, and Discard leaves the page unchanged', async () => {
    await app.createPage('discard.md', { title: 'Discard', body: BODY });
    const before = file('discard.md');
    const { context, page } = await app.openWorkspace('discard.md', { width: 390, height: 844 });
    await editor(page).waitFor();
    await selectSentence(page);
    await aiButton(page).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'AI actions' }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'ai-menu-390-light.png') });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const suggestion = page.getByRole('region', { name: 'AI suggestion' });
    await suggestion.getByText(/Fake simplify answer/).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'ai-suggestion-390-light.png') });
    await suggestion.getByRole('button', { name: 'Discard' }).click();
    expect(await suggestion.count()).toBe(0);
    expect(await editor(page).textContent()).toContain(SENTENCE);
    expect(file('discard.md')).toBe(before);
    await context.close();
  }, 90_000);

  it('shows a provider failure as a message and keeps the text', async () => {
    await app.createPage('failure.md', { title: 'Failure', body: BODY });
    const before = file('failure.md');
    const { context, page } = await app.openWorkspace('failure.md');
    await editor(page).waitFor();
    await selectSentence(page);
    fake.failNext(500, 5);
    await aiButton(page).click();
    await page.getByRole('menuitem', { name: 'Fix grammar' }).click();
    await page.getByRole('alert').filter({ hasText: 'The AI could not help' }).waitFor({ timeout: 30_000 });
    expect(await editor(page).textContent()).toContain(SENTENCE);
    expect(file('failure.md')).toBe(before);
    await context.close();
  }, 90_000);
});

describeInChromium('web app: no AI provider', () => {
  const app = useBrowserApp({ owner: true });

  it('offers no AI button', async () => {
    await app.createPage('plain.md', { title: 'Plain', body: BODY });
    const { context, page } = await app.openWorkspace('plain.md');
    await editor(page).waitFor();
    await page.waitForLoadState('networkidle');
    const status = await page.evaluate(async () => (await fetch('/api/v1/ai/status')).json());
    expect(status.enabled).toBe(false);
    await page.getByRole('button', { name: 'Preview' }).waitFor();
    expect(await aiButton(page).count()).toBe(0);
    await context.close();
  }, 90_000);
});
