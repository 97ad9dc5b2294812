/**
 * The writers' web app in headless Chromium against a real Folio on loopback
 * (the built app in dist/web, so run `npm run build` first):
 *
 * - JavaScript sent before the first screen: the gzipped bytes of the scripts
 *   index.html loads (the editor and CodeMirror are a lazily loaded chunk);
 * - navigation to an editable page: from navigation start to the editor showing
 *   the page's text, editable, median of 7 fresh tabs;
 * - a tree of 5,000 pages: from the last of the answers the screen waits for
 *   (session, workspaces, tree) to the frame that shows its rows (only the rows
 *   in view are in the DOM);
 * - keystroke to paint in a 5,000-line page of sections, in live preview (the default)
 *   and in source mode, and in the worst case of a single 5,000-line paragraph: from each
 *   keydown to the next animation frame after CodeMirror handled it, over 60 keystrokes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, signedInTab, startAppServer } from '../test/helpers/chromium.js';
import type { TestServer } from '../test/helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../test/helpers/users.js';
import { createPage } from '../test/helpers/workspace-access.js';
import { percentile, report } from './report.js';

const WEB = path.resolve(import.meta.dirname, '../dist/web');

/** Gzipped bytes of the scripts and styles index.html loads before anything is shown. */
function initialBytes(): { js: number; css: number; editor: number } {
  const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const gz = (ref: string) => fs.statSync(path.join(WEB, `${ref}.gz`)).size;
  const editor = fs
    .readdirSync(path.join(WEB, 'assets'))
    .filter((f) => /^editor-pane-.*\.js$/.test(f))
    .reduce((sum, f) => sum + fs.statSync(path.join(WEB, 'assets', `${f}.gz`)).size, 0);
  return {
    js: refs.filter((r) => r.endsWith('.js')).reduce((s, r) => s + gz(r), 0),
    css: refs.filter((r) => r.endsWith('.css')).reduce((s, r) => s + gz(r), 0),
    editor,
  };
}

/**
 * A 5,000-line page shaped like long documentation: sections of a heading, a paragraph of
 * three lines, a list, a fenced code block and blank lines between them.
 */
function longDocument(): string {
  const lines: string[] = [];
  for (let s = 1; lines.length < 5000; s++) {
    lines.push(`## Section ${s}`, '');
    lines.push(`Some words about section ${s}, with **bold** and _emphasis_,`);
    lines.push('a [link](other.md) and `inline code`, wrapped over', 'three lines of one paragraph.', '');
    lines.push('- first point', '- second point', '- third point', '');
    lines.push('```js', `const section = ${s};`, '```', '');
  }
  return `${lines.slice(0, 5000).join('\n')}\n`;
}

/** The worst case for CodeMirror's Markdown parser: 5,000 lines with no blank line, one paragraph. */
function oneParagraph(): string {
  const lines = Array.from({ length: 5000 }, (_, i) => `Line ${i + 1}: some words to wrap, **bold**.`);
  return `${lines.join('\n')}\n`;
}

/**
 * From each keydown to the next animation frame after CodeMirror handled it, typing 60
 * characters at the end of the page's first line.
 */
async function keystrokeToPaint(
  browser: Browser,
  server: TestServer,
  owner: TestUser,
  url: string,
  mode: 'live' | 'source' = 'live',
) {
  const { context, page } = await signedInTab(browser, server, owner, url);
  await page.locator('.cm-editor.cm-live-preview').waitFor();
  if (mode === 'source') {
    await page.getByRole('button', { name: 'Source' }).click();
    await page.locator('.cm-editor:not(.cm-live-preview)').waitFor();
  }
  await page.locator('.cm-line').first().click();
  await page.keyboard.press('End');
  await page.evaluate(() => {
    const w = window as unknown as { samples: number[] };
    w.samples = [];
    document.addEventListener(
      'keydown',
      (e) => requestAnimationFrame(() => w.samples.push(performance.now() - e.timeStamp)),
      true,
    );
  });
  await page.keyboard.type('The quick brown fox jumps over the lazy dog, then types more.', { delay: 40 });
  const samples = await page.evaluate(() => (window as unknown as { samples: number[] }).samples);
  await context.close();
  return samples;
}

/** 5,000 pages in one folder level, as the tree endpoint answers it: every one a visible row. */
function bigTree() {
  return Array.from({ length: 5000 }, (_, p) => ({
    type: 'page',
    name: `page-${p}.md`,
    path: `page-${p}.md`,
    title: `Page ${p}`,
    page_id: `p${p}`,
    sort_order: p,
    children: [],
  }));
}

export async function benchWeb(): Promise<void> {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const bytes = initialBytes();
  const server = await startAppServer();
  const browser = await launchChromium();
  try {
    const owner = await registerUser(server);
    const ws = await firstWorkspace(server, owner);
    await createPage(server, owner, ws, 'long.md', { title: 'Long', body: longDocument() });
    await createPage(server, owner, ws, 'paragraph.md', { title: 'One paragraph', body: oneParagraph() });

    const toEditable: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { context, page } = await signedInTab(browser, server, owner, '/login');
      await page.goto(`${server.url}/w/${ws.slug}/index.md`);
      await page.waitForFunction(() =>
        document.querySelector('.cm-content[contenteditable="true"] .cm-line'),
      );
      toEditable.push(await page.evaluate(() => performance.now()));
      await context.close();
    }

    const treeTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { context, page } = await signedInTab(browser, server, owner, '/login');
      const body = JSON.stringify({ tree: bigTree() });
      await page.route('**/tree', (route) => route.fulfill({ contentType: 'application/json', body }));
      await page.goto(`${server.url}/w/${ws.slug}`);
      await page.waitForFunction(
        () => document.querySelector<HTMLElement>('[role="tree"]')?.style.height === `${5000 * 30}px`,
      );
      treeTimes.push(
        await page.evaluate(async () => {
          await new Promise((r) => requestAnimationFrame(r));
          // The tree is asked for at start, beside the session and the workspaces; the screen
          // can show it once all three have answered, so the figure starts at the last answer.
          const answers = performance
            .getEntriesByType('resource')
            .filter((e) => /\/api\/(auth\/me|v1\/workspaces\?|v1\/content\/[^/]+\/tree)/.test(e.name))
            .map((e) => (e as PerformanceResourceTiming).responseEnd);
          return performance.now() - Math.max(...answers);
        }),
      );
      await context.close();
    }

    const typical = await keystrokeToPaint(browser, server, owner, `/w/${ws.slug}/long.md`, 'source');
    const live = await keystrokeToPaint(browser, server, owner, `/w/${ws.slug}/long.md`, 'live');
    const worst = await keystrokeToPaint(browser, server, owner, `/w/${ws.slug}/paragraph.md`, 'source');

    report('web: `npm run build && npm run bench web`', [
      { figure: 'JavaScript before the first screen (gzipped)', value: kb(bytes.js), goal: '< 200 KB' },
      { figure: 'CSS before the first screen (gzipped)', value: kb(bytes.css) },
      { figure: 'editor chunk, loaded on opening a page (gzipped)', value: kb(bytes.editor) },
      {
        figure: 'navigation to an editable page, median / worst of 7',
        value: `${percentile(toEditable, 50).toFixed(0)} / ${Math.max(...toEditable).toFixed(0)} ms`,
        goal: '< 1 s',
      },
      {
        figure: 'tree of 5,000 pages rendered, median of 5',
        value: `${percentile(treeTimes, 50).toFixed(0)} ms`,
        goal: '< 200 ms',
      },
      {
        figure: 'keystroke to paint, 5,000-line page of sections, source mode, median / p95',
        value: `${percentile(typical, 50).toFixed(1)} / ${percentile(typical, 95).toFixed(1)} ms`,
        goal: '< 16 ms',
      },
      {
        figure: 'keystroke to paint, 5,000-line page of sections, live preview, median / p95',
        value: `${percentile(live, 50).toFixed(1)} / ${percentile(live, 95).toFixed(1)} ms`,
        goal: 'p95 < 16 ms',
      },
      {
        figure: 'keystroke to paint, one 5,000-line paragraph (worst case), median / p95',
        value: `${percentile(worst, 50).toFixed(1)} / ${percentile(worst, 95).toFixed(1)} ms`,
      },
    ]);
  } finally {
    await browser.close();
    await server.close();
  }
}
