/**
 * The editor's live preview in headless Chromium against a real server: toggled beside the
 * editor, it follows what the writer types, rendered with the published site's theme; on a
 * narrow screen it takes the editor's place.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeInChromium, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';
import { cursorAtEndOf, editor } from './editor-helpers.js';

describeInChromium('web app: page preview', () => {
  const app = useBrowserApp({ owner: true });

  it('shows what is typed as the site renders it, beside the editor', async () => {
    await app.createPage('guides/preview.md', { title: 'Preview me', body: 'First paragraph.\n' });
    const { context, page } = await app.openWorkspace('guides/preview.md');
    await editor(page).waitFor();
    const toggle = page.getByRole('button', { name: 'Preview' });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');

    const preview = page.frameLocator('iframe[title="Preview"]');
    await preview.getByRole('heading', { level: 1, name: 'Preview me' }).waitFor();
    await preview.getByText('First paragraph.').waitFor();
    // Styled by the theme's stylesheet from the published site.
    const stylesheet = await preview.locator('link[rel=stylesheet]').getAttribute('href');
    expect(stylesheet).toMatch(new RegExp(`^/p/${app.ws.slug}/_assets/theme-[a-z]+-[0-9a-f]+\\.css$`));

    await cursorAtEndOf(page, 'First paragraph.');
    await page.keyboard.type('\n\n## Hello preview');
    await preview.getByRole('heading', { level: 2, name: 'Hello preview' }).waitFor();
    expect(await editor(page).isVisible()).toBe(true);
    // The frame holds the site's own page (the theme tests check it) and runs no scripts for axe.
    expect(await seriousA11yViolations(page, '.preview-frame')).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'preview-1280-light.png') });

    await toggle.click();
    expect(await page.locator('iframe[title="Preview"]').count()).toBe(0);
    await context.close();
  }, 90_000);

  it('switches between editor and preview on a narrow screen', async () => {
    await app.createPage('narrow.md', { title: 'Narrow', body: 'Small screen text.\n' });
    const { context, page } = await app.openWorkspace('narrow.md', {
      width: 390,
      height: 844,
      colorScheme: 'dark',
    });
    await editor(page).waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.frameLocator('iframe[title="Preview"]').getByText('Small screen text.').waitFor();
    expect(await editor(page).isVisible()).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, 'preview-390-dark.png') });
    await page.getByRole('button', { name: 'Preview' }).click();
    await editor(page).waitFor();
    expect(await editor(page).isVisible()).toBe(true);
    await context.close();
  }, 90_000);
});
