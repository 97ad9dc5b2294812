import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { runGit } from '../../src/git/git.js';
import type { TestServer } from '../helpers/server.js';

/** The bytes of a page file in the workspace's working tree. */
export const fileBytes = (
  server: Pick<TestServer, 'dataDir'>,
  workspaceId: string,
  pagePath: string,
): Buffer => readFileSync(path.join(server.dataDir, 'workspaces', workspaceId, pagePath));

/** The commits of the workspace's repository (touching `file`, when given), newest first. */
export async function commits(server: TestServer, workspaceId: string, file?: string): Promise<string[]> {
  const dir = path.join(server.dataDir, 'workspaces', workspaceId);
  const log = await runGit(dir, ['log', '--format=%H', '--', ...(file ? [file] : [])], {
    allowFailure: true,
  });
  return log.stdout.split('\n').filter(Boolean);
}

/** The save state the app shows ("Saved", "Saving…", "Unsaved changes"). */
export const saveStatus = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Saved|Saving|Unsaved/ });

/** Waits until the status reads exactly "Saved". */
export async function waitSaved(page: Page, timeout = 20_000): Promise<void> {
  await saveStatus(page)
    .filter({ hasText: /^Saved$/ })
    .waitFor({ timeout });
}

/** The editor textbox. */
export const editor = (page: Page) => page.getByRole('textbox', { name: 'Editor' });

/** Places the cursor at the end of the editor line that contains `text`. */
export async function cursorAtEndOf(page: Page, text: string): Promise<void> {
  await page.locator('.cm-line', { hasText: text }).first().click();
  await page.keyboard.press('End');
}

/** The editor's text as its lines show it, without the other people's cursor widgets (co-editing). */
export const editorText = (page: Page) =>
  page.evaluate(() => {
    const content = document.querySelector('.cm-content')!.cloneNode(true) as HTMLElement;
    content.querySelectorAll('.coedit-caret, .cm-widgetBuffer').forEach((e) => e.remove());
    return Array.from(content.querySelectorAll('.cm-line'), (line) => line.textContent).join('\n');
  });

/** The name labels of the other people's cursors shown in this editor (co-editing). */
export const remoteCursorNames = (page: Page) => page.locator('.coedit-caret-name').allTextContents();

/** Counts the content writes (PUT) the tab sends. */
export function countPuts(page: Page): { readonly count: number } {
  const counter = { count: 0 };
  page.on('request', (req) => {
    if (req.method() === 'PUT' && req.url().includes('/api/v1/content/')) counter.count += 1;
  });
  return counter;
}

/**
 * Holds the tab's file uploads (POST …/uploads) until the returned function is called, as a
 * slow network would, so a test can look at the editor while a file is on its way.
 */
export async function holdUploads(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/v1\/content\/[^/]+\/uploads$/, async (route) => {
    if (route.request().method() === 'POST') await released;
    await route.continue();
  });
  return release;
}
