/**
 * The live preview in headless Chromium against a real server: the page is drawn as
 * formatted text while the file stays byte for byte what the writer changed. Opening and
 * switching modes write nothing; a task toggle changes one byte; a table cell edit changes
 * that cell; a Google Docs paste becomes clean Markdown; the slash menu inserts what the
 * preview draws.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { ARTIFACTS, describeInChromium, seriousA11yViolations, useBrowserApp } from '../helpers/browser.js';
import {
  commits,
  countPuts,
  cursorAtEndOf,
  editor,
  fileBytes,
  holdUploads,
  waitSaved,
} from './editor-helpers.js';

/** A 1×1 PNG, as Google Docs puts a pasted picture on the clipboard (a data: URL). */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** What Google Docs puts on the clipboard (trimmed): one bold wrapper, formatting in inline styles. */
const GOOGLE_DOCS_HTML =
  '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-5c1f0e2a-7fff-3b1d-9a4e-0c2b8d1e6f10">' +
  '<h2 dir="ltr" style="line-height:1.38;margin-top:18pt;margin-bottom:6pt;"><span style="font-size:16pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;font-style:normal;">Release plan</span></h2>' +
  '<p dir="ltr" style="line-height:1.38;margin-top:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">We ship on </span>' +
  '<span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:700;">Friday</span>' +
  '<span style="font-size:11pt;font-weight:400;"> with the </span>' +
  '<span style="font-size:11pt;font-weight:400;font-style:italic;">new editor</span>' +
  '<span style="font-size:11pt;font-weight:400;">. See </span>' +
  '<a href="https://example.com/plan" style="text-decoration:none;"><span style="font-size:11pt;color:#1155cc;text-decoration:underline;">the plan</span></a>' +
  '<span style="font-size:11pt;">.</span></p>' +
  '<ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;">' +
  '<li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-size:11pt;">Write the notes</span></p></li>' +
  '<ul style="margin-top:0;"><li dir="ltr" style="list-style-type:circle;" aria-level="2"><p dir="ltr" role="presentation"><span style="font-size:11pt;">Check the links</span></p></li></ul>' +
  '<li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-size:11pt;">Tag the release</span></p></li></ul>' +
  '<ol style="margin-top:0;"><li dir="ltr" aria-level="1"><p dir="ltr" role="presentation"><span>Build</span></p></li>' +
  '<li dir="ltr" aria-level="1"><p dir="ltr" role="presentation"><span>Deploy</span></p></li></ol>' +
  '<div dir="ltr" style="margin-left:0pt;" align="left"><table style="border:none;border-collapse:collapse;"><colgroup><col width="120"><col width="120"></colgroup><tbody>' +
  '<tr style="height:0pt"><td style="border-left:solid #000000 1pt;padding:5pt;"><p dir="ltr"><span style="font-size:11pt;">Step</span></p></td><td style="padding:5pt;"><p dir="ltr"><span style="font-size:11pt;">Owner</span></p></td></tr>' +
  '<tr style="height:0pt"><td style="padding:5pt;"><p dir="ltr"><span style="font-size:11pt;">Build</span></p></td><td style="padding:5pt;"><p dir="ltr"><span style="font-size:11pt;">Ada</span></p></td></tr>' +
  '</tbody></table></div>' +
  `<p dir="ltr"><span style="font-size:11pt;"><span style="display:inline-block;overflow:hidden;width:1px;height:1px;"><img src="data:image/png;base64,${PNG_BASE64}" width="1" height="1"></span></span></p>` +
  '</b><br class="Apple-interchange-newline">';

const GOOGLE_DOCS_MARKDOWN = [
  '## Release plan',
  '',
  'We ship on **Friday** with the *new editor*. See [the plan](https://example.com/plan).',
  '',
  '- Write the notes',
  '  - Check the links',
  '- Tag the release',
  '',
  '1. Build',
  '2. Deploy',
  '',
  '| Step | Owner |',
  '| --- | --- |',
  '| Build | Ada |',
].join('\n');

/** A page with every kind of block the live preview draws. */
const SHOWCASE = [
  'Start here.',
  '',
  '## Install the tools',
  '',
  'Run the installer, then **sign in** with your *work* account and read [the guide](guide.md) or `folio --help`.',
  '',
  '- [ ] Download the installer',
  '- [x] Create an account',
  '- A plain point',
  '',
  '1. First step',
  '2. Second step',
  '',
  '> [!TIP]',
  '> Keep your recovery codes somewhere safe.',
  '',
  ':::warning Before you upgrade',
  'Back up the data directory.',
  ':::',
  '',
  '!!! note "MkDocs style"',
  '    Indented body.',
  '',
  '> A plain quote.',
  '',
  '---',
  '',
  '| Name | Role |',
  '| --- | --- |',
  '| Ada | Lead |',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  '![A pixel](uploads/pixel.png)',
  '',
  'The end.',
  '',
].join('\n');

/** Dispatches a real `paste` event on the editor, its clipboard holding `data`. */
async function paste(page: Page, data: Record<string, string>): Promise<void> {
  await page.evaluate((items) => {
    const transfer = new DataTransfer();
    for (const [type, value] of Object.entries(items)) transfer.setData(type, value);
    document
      .querySelector('.cm-content')!
      .dispatchEvent(
        new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: transfer }),
      );
  }, data);
}

describeInChromium('web app: live preview', () => {
  const app = useBrowserApp({ owner: true });

  const saved = (pagePath: string) => fileBytes(app.server, app.ws.id, pagePath).toString('utf8');
  /** The page's body on disk, after the frontmatter Folio wrote when it was created. */
  const body = (pagePath: string) => Promise.resolve(saved(pagePath).replace(/^---\n[\s\S]*?\n---\n\n/, ''));
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
  /** The Markdown the editor holds (hidden marks are in the DOM at no size). */
  const text = (page: Page) => editor(page).evaluate((el) => el.textContent);

  beforeAll(async () => {
    // The showcase links to the guide; a link to a missing page would keep its URL in view.
    await app.createPage('guide.md', { title: 'Guide', body: 'The guide.\n' });
    await app.createPage('showcase.md', { title: 'Showcase', body: SHOWCASE });
  });

  it('draws the page formatted by default; opening, moving and switching to Source and back write nothing', async () => {
    const before = saved('showcase.md');
    // The page's creation is committed shortly after it is written.
    await eventually(() => commits(app.server, app.ws.id, 'showcase.md')).toHaveLength(1);
    const commitsBefore = await commits(app.server, app.ws.id);
    // Tall enough that every block is in view (only the visible text is decorated).
    const { context, page } = await app.openWorkspace('showcase.md', { height: 2000 });
    const puts = countPuts(page);
    await page.locator('.cm-editor.cm-live-preview').waitFor();

    // Marks are hidden (zero size) off the cursor's line; the text is still the file's.
    const hiddenMarks = await page
      .locator('.cm-lp-hide')
      .evaluateAll((els) => els.map((e) => [e.textContent, getComputedStyle(e).fontSize]));
    expect(hiddenMarks).toEqual(
      expect.arrayContaining([
        ['## ', '0px'],
        ['**', '0px'],
        ['](guide.md)', '0px'],
      ]),
    );
    expect(await page.locator('.cm-line.cm-lp-h2', { hasText: 'Install the tools' }).count()).toBe(1);
    expect(await page.getByRole('checkbox').count()).toBe(2);
    expect(await page.getByRole('checkbox', { name: 'Create an account' }).isChecked()).toBe(true);
    const callouts = await page
      .locator('.cm-lp-callout-first')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-callout-title') ?? e.textContent));
    expect(callouts).toEqual(['Tip', ':::warning Before you upgrade', 'MkDocs style']);
    expect(await page.locator('.cm-lp-hr').count()).toBe(1);
    expect(await page.getByRole('table').count()).toBe(1);
    expect(await page.locator('.cm-lp-fence-open').getAttribute('data-language')).toBe('js');
    expect(await page.locator('.cm-lp-image img').getAttribute('src')).toBe(
      `/api/v1/content/${app.ws.slug}/uploads/pixel.png`,
    );
    expect(await text(page)).toContain('Run the installer, then **sign in** with your *work* account');

    // The cursor's line shows its Markdown.
    await page.locator('.cm-line', { hasText: 'Install the tools' }).click();
    expect(await page.locator('.cm-line.cm-lp-h2 .cm-lp-hide').count()).toBe(0);

    const source = page.getByRole('button', { name: 'Source' });
    await source.click();
    expect(await source.getAttribute('aria-pressed')).toBe('true');
    await page.locator('.cm-editor:not(.cm-live-preview)').waitFor();
    expect(await page.locator('.cm-lp-hide').count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    await editor(page).focus();
    await page.keyboard.press('Control+e');
    await page.locator('.cm-editor.cm-live-preview').waitFor();
    expect(await source.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Control+e');
    await page.locator('.cm-editor:not(.cm-live-preview)').waitFor();

    // The choice is remembered: a new tab opens in Source.
    const again = await context.newPage();
    await again.goto(page.url());
    await again.locator('.cm-editor:not(.cm-live-preview) .cm-line').first().waitFor();
    expect(await again.getByRole('button', { name: 'Source' }).getAttribute('aria-pressed')).toBe('true');
    await again.getByRole('button', { name: 'Source' }).click();
    await again.locator('.cm-editor.cm-live-preview').waitFor();

    // Longer than the autosave pause: nothing was a change.
    await new Promise((r) => setTimeout(r, 2500));
    expect(puts.count).toBe(0);
    expect(saved('showcase.md')).toBe(before);
    expect(await commits(app.server, app.ws.id)).toEqual(commitsBefore);
    await context.close();
  }, 120_000);

  it('toggles a task checkbox by mouse and keyboard, changing exactly one byte each time', async () => {
    const body = 'Tasks for today:\n\n- [ ] Write the intro\n- [x] Pick a name\n';
    await app.createPage('tasks.md', { title: 'Tasks', body });
    const before = saved('tasks.md');
    const { context, page } = await app.openWorkspace('tasks.md');
    await page.getByRole('checkbox', { name: 'Write the intro' }).click();
    await eventually(() => Promise.resolve(saved('tasks.md'))).not.toBe(before);
    const after = saved('tasks.md');
    expect(after.length).toBe(before.length);
    const changed = [...after].flatMap((c, i) => (c === before[i] ? [] : [i]));
    expect(changed).toEqual([before.indexOf('[ ]') + 1]);
    expect(after).toBe(before.replace('- [ ] Write', '- [x] Write'));

    // By keyboard: the checkbox takes the focus and Space toggles it.
    const picked = page.getByRole('checkbox', { name: 'Pick a name' });
    await picked.focus();
    await page.keyboard.press('Space');
    await eventually(() => Promise.resolve(saved('tasks.md'))).toBe(
      after.replace('- [x] Pick', '- [ ] Pick'),
    );
    await waitSaved(page);
    await context.close();
  }, 90_000);

  it('edits a table cell in place: only that cell’s bytes change; Tab moves on and adds a row', async () => {
    const body = 'The team:\n\n| Name | Role |\n|------|------|\n| Ada  | Lead |\n\nAfter the table.\n';
    await app.createPage('team.md', { title: 'Team', body });
    const before = saved('team.md');
    const { context, page } = await app.openWorkspace('team.md');
    const table = page.getByRole('table');
    await table.waitFor();
    const role = table.getByRole('textbox', { name: 'Role, row 1' });
    await role.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Writer');
    await eventually(() => Promise.resolve(saved('team.md'))).toBe(before.replace('| Lead |', '| Writer |'));
    // The unpadded delimiter row and the padding of the other cells stay as written.
    expect(saved('team.md')).toContain('|------|------|\n| Ada  | Writer |');

    // Tab in the last cell adds a row and moves into it.
    await page.keyboard.press('Tab');
    await page.keyboard.type('Bea');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Review');
    await eventually(() => Promise.resolve(saved('team.md'))).toBe(
      before.replace('| Lead |', '| Writer |\n| Bea | Review |'),
    );
    expect(await table.getByRole('textbox').count()).toBe(6);

    // A new column is one button away; aligning the columns only when asked.
    await page.getByRole('button', { name: 'Add column' }).click();
    await page.keyboard.type('Since');
    await eventually(() => Promise.resolve(saved('team.md'))).toContain('| Name | Role | Since |');
    expect(saved('team.md')).toContain('|------|------| --- |\n| Ada  | Writer |  |');
    await page.getByRole('button', { name: 'Align columns' }).click();
    await eventually(() => Promise.resolve(saved('team.md'))).toContain(
      '| Name | Role   | Since |\n| ---- | ------ | ----- |\n| Ada  | Writer |       |\n| Bea  | Review |       |',
    );
    await waitSaved(page);
    await context.close();
  }, 90_000);

  it('pastes a Google Docs clipboard as clean Markdown, uploading its picture', async () => {
    await app.createPage('pasted.md', { title: 'Pasted', body: 'Intro.\n\n' });
    const { context, page } = await app.openWorkspace('pasted.md');
    const release = await holdUploads(page);
    await page.locator('.cm-line').nth(1).click();
    await paste(page, {
      'text/html': GOOGLE_DOCS_HTML,
      'text/plain': 'Release plan\nWe ship on Friday…',
    });
    // While the picture uploads, the Markdown is saved without a trace of it.
    await eventually(() => body('pasted.md')).toBe(`Intro.\n\n${GOOGLE_DOCS_MARKDOWN}\n\n\n`);
    expect(await page.getByRole('status').filter({ hasText: 'Uploading pasted-image-1.png…' }).count()).toBe(
      1,
    );
    release();
    await eventually(() => body('pasted.md')).toMatch(
      /!\[pasted-image-1\]\(uploads\/pasted-image-1[^)]*\.png\)/,
    );
    const file = await body('pasted.md');
    expect(file.slice(0, file.indexOf('![pasted-image-1]'))).toBe(`Intro.\n\n${GOOGLE_DOCS_MARKDOWN}\n\n`);
    expect(file).not.toMatch(/<span|style=|docs-internal/);

    // Plain text stays as it is; Ctrl/Cmd+Shift+V takes the text of a rich clipboard.
    await cursorAtEndOf(page, 'Intro.');
    await paste(page, { 'text/plain': ' *as is* <b>' });
    await editor(page).evaluate((el) =>
      el.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'V', ctrlKey: true, shiftKey: true, bubbles: true }),
      ),
    );
    await paste(page, { 'text/html': '<p><b>Bold</b> words</p>', 'text/plain': ' Bold words' });
    await eventually(() => body('pasted.md')).toContain('Intro. *as is* <b> Bold words\n');
    await waitSaved(page);
    await context.close();
  }, 90_000);

  it('inserts a task and a callout from the slash menu, drawn as the preview draws them', async () => {
    await app.createPage('slash-live.md', { title: 'Slash', body: 'Plan:\n' });
    const { context, page } = await app.openWorkspace('slash-live.md');
    await cursorAtEndOf(page, 'Plan:');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/callout');
    await page.getByRole('option', { name: /^Callout/, selected: true }).click();
    await page.keyboard.type('Read this first.');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('/to-do');
    await page.getByRole('option', { name: /^To-do list/, selected: true }).click();
    await page.keyboard.type('Ship it');
    await eventually(() => body('slash-live.md')).toBe(
      'Plan:\n\n> [!NOTE]\n> Read this first.\n- [ ] Ship it',
    );
    await cursorAtEndOf(page, 'Plan:');
    await page.getByRole('checkbox', { name: 'Ship it' }).waitFor();
    await page.locator('.cm-lp-callout-first[data-callout-title="Note"]').waitFor();
    await context.close();
  }, 90_000);

  it('is usable at 390 px and has no serious WCAG violations, light and dark', async () => {
    for (const [width, colorScheme] of [
      [1280, 'light'],
      [1280, 'dark'],
      [390, 'light'],
    ] as const) {
      const { context, page } = await app.openWorkspace('showcase.md', { width, height: 900, colorScheme });
      await page.getByRole('table').waitFor();
      // The cursor on the first line, so the rest is drawn formatted.
      await page.locator('.cm-line', { hasText: 'Start here.' }).click();
      const box = await editor(page).evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(box.scroll, `${width}px`).toBeLessThanOrEqual(box.client + 1);
      await page.screenshot({ path: path.join(ARTIFACTS, `live-preview-${width}-${colorScheme}.png`) });
      expect(await seriousA11yViolations(page)).toEqual([]);
      if (width === 1280) {
        // The README's picture (docs/images/live-preview-*.png): the page's middle, where most blocks are.
        await page.locator('.cm-scroller').evaluate((el) => el.scrollTo(0, 330));
        await page.screenshot({ path: path.join(ARTIFACTS, `live-preview-readme-${colorScheme}.png`) });
      }
      await context.close();
    }
  }, 150_000);
});
