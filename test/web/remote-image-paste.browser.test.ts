/**
 * Rich paste of a web page's HTML in headless Chromium against a real server: its remote
 * image is fetched by the server (from an image server on loopback, which the server is
 * allowed to reach here as webhook tests are) and linked as an upload; one it cannot fetch
 * keeps its URL, with the reason shown.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ARTIFACTS, describeInChromium, startAppServer, useBrowserApp } from '../helpers/browser.js';
import { cursorAtEndOf, fileBytes, waitSaved } from './editor-helpers.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

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

describeInChromium('web app: pasting remote images', () => {
  let images: http.Server;
  let origin = '';
  const app = useBrowserApp({
    owner: true,
    start: () => startAppServer({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true' } }),
  });
  const body = (pagePath: string) =>
    Promise.resolve(
      fileBytes(app.server, app.ws.id, pagePath)
        .toString('utf8')
        .replace(/^---\n[\s\S]*?\n---\n\n/, ''),
    );

  beforeAll(async () => {
    images = http.createServer((req, res) => {
      if (req.url === '/assets/team-photo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => images?.close(resolve)));

  it('uploads a pasted remote image and links the upload; one that fails keeps its URL', async () => {
    await app.createPage('web-paste.md', { title: 'Web paste', body: 'Intro.\n' });
    const { context, page } = await app.openWorkspace('web-paste.md');
    await cursorAtEndOf(page, 'Intro.');
    await page.keyboard.press('Enter');
    await paste(page, {
      'text/html': `<p>Our team:</p><p><img src="${origin}/assets/team-photo.png" alt="The team"></p><p><img src="${origin}/gone.png" alt="Old logo"></p>`,
      'text/plain': 'Our team:',
    });
    await expect
      .poll(() => body('web-paste.md'), { timeout: 15_000 })
      .toMatch(/!\[The team\]\(uploads\/team-photo[^)]*\.png\)/);
    const file = await body('web-paste.md');
    expect(file).toContain(`![Old logo](${origin}/gone.png)`);
    expect(file).not.toContain(`${origin}/assets/team-photo.png`);
    const stored = file.match(/\(uploads\/(team-photo[^)]*\.png)\)/)![1]!;
    const onDisk = path.join(app.server.dataDir, 'workspaces', app.ws.id, 'uploads', stored);
    expect(fs.readFileSync(onDisk).equals(PNG)).toBe(true);
    await page.getByRole('alert').filter({ hasText: 'Kept the link to gone.png' }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'remote-image-paste.png') });
    await waitSaved(page);
    await context.close();
  }, 90_000);
});
