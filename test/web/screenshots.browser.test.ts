/**
 * Screenshots of the editor at 1280 and 390 px wide, light and dark, saved to
 * test-artifacts/web/ for people to look at; and at 390 px the tree is a drawer.
 */
import { beforeAll, expect, it } from 'vitest';
import path from 'node:path';
import { ARTIFACTS, describeInChromium, useBrowserApp } from '../helpers/browser.js';
import { editor } from './editor-helpers.js';

const GUIDE = `# Getting started

Folio keeps every page as a **Markdown file** in a git repository. What you type here is what lands in the file, byte for byte.

## Install

\`\`\`bash
npm ci && npm start
\`\`\`

1. Open the workspace.
2. Pick a page from the tree, or create one.
3. Write. Folio saves a moment after you stop typing.

> Pages link to each other with [[guides/publishing|wikilinks]].

| Setting | Default |
| --- | --- |
| \`PORT\` | 3000 |
`;

describeInChromium('web app: screenshots', () => {
  const app = useBrowserApp({ owner: { name: 'Ada Writer' } });

  beforeAll(async () => {
    await app.createPage('guides/getting-started.md', {
      title: 'Getting started',
      body: GUIDE,
    });
    await app.createPage('guides/publishing.md', {
      title: 'Publishing',
      body: 'How it works.\n',
    });
    await app.createPage('reference/cli.md', { title: 'Command line', body: 'The CLI.\n' });
  });

  it('styles the editor under the CSP, and saves it at 1280 and 390 px, light and dark', async () => {
    for (const width of [1280, 390]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context, page } = await app.openWorkspace('guides/getting-started.md', {
          width,
          height: width > 600 ? 800 : 844,
          colorScheme,
        });
        const refused: string[] = [];
        page.on('console', (msg) => {
          if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
        });
        await page.reload();
        await editor(page).waitFor();
        await page.locator('.cm-line', { hasText: 'Getting started' }).first().waitFor();
        // CodeMirror's own styles (injected with the response's CSP nonce) apply: its base theme
        // lays the editor out as a flex column; and the live preview draws the page.
        const layout = await page
          .locator('.cm-editor')
          .first()
          .evaluate((el) => getComputedStyle(el).display);
        expect(layout).toBe('flex');
        expect(await page.locator('.cm-editor.cm-live-preview').count()).toBe(1);
        expect(refused).toEqual([]);
        const tree = page.getByRole('tree', { name: 'Pages' });
        // At phone width the tree is a drawer, hidden until asked for.
        expect(await tree.isVisible(), `${width}px`).toBe(width > 600);
        // Nothing in the top bar is pushed out of sight, at any width.
        const bar = await page
          .locator('.topbar')
          .evaluate((el) => ({ content: el.scrollWidth, box: el.clientWidth }));
        expect(bar.content, `${width}px top bar`).toBeLessThanOrEqual(bar.box);
        await page.screenshot({ path: path.join(ARTIFACTS, `editor-${width}-${colorScheme}.png`) });
        if (width < 600) {
          await page.getByRole('button', { name: 'Pages' }).click();
          await tree.waitFor({ state: 'visible' });
          // The drawer slides in: the picture is taken once it has arrived.
          await page
            .locator('#sidebar')
            .evaluate((el) => Promise.all(el.getAnimations().map((animation) => animation.finished)));
          await page.screenshot({ path: path.join(ARTIFACTS, `drawer-${width}-${colorScheme}.png`) });
        }
        await context.close();
      }
    }
  }, 120_000);
});
