/**
 * MkDocs attribute lists on the published site: buttons, image sizes, custom heading ids
 * and a paragraph's class are read, only the attributes a page may carry survive, and no
 * `{ … }` is left in the text a reader or the site's search sees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import type { TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, setSettings, startPublishing } from '../publishing/publishing-helpers.js';

let server: TestServer;
let owner: TestUser;
let ws: TestWorkspace;

const PAGE = `---
title: Start here
status: published
---

# Start here

[Get started](setup.md){ .md-button }
[Download](https://example.com/download){ .md-button .md-button--primary onclick="alert(1)" style="color:red" }

![Screen](screen.png){ width="300" align=left }
![Wide](screen.png){ width="99999999" .page id=x }

## Install it { #custom-id }

## Layout {: .site-nav .md-card }

Made of plain words
{: #intro .md-note data-x="1" }

Prose keeps {braces} and [a link](setup.md){that is not a list}.
`;

/** The article's HTML. */
const article = (html: string) => /<article class="article">([\s\S]*?)<\/article>/.exec(html)?.[1] ?? '';
/** Its text as a reader sees it. */
const text = (html: string) => article(html).replace(/<[^>]+>/g, ' ');

beforeAll(async () => {
  server = await startPublishing();
  owner = await registerUser(server);
  ws = await createWorkspace(server, owner, 'attr-lists');
  const root = path.join(server.dataDir, 'workspaces', ws.id);
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'mkdocs.yml'), 'site_name: Attr\n');
  fs.writeFileSync(path.join(root, 'docs/index.md'), PAGE);
  fs.writeFileSync(path.join(root, 'docs/setup.md'), '---\ntitle: Setup\nstatus: published\n---\n\nSetup.\n');
  // A tiny PNG, so the image is served like any repository file.
  fs.writeFileSync(
    path.join(root, 'docs/screen.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  await setSettings(server, owner, ws, { public_site: true });
  for (const p of ['docs/index.md', 'docs/setup.md']) {
    await eventually(async () => {
      const res = await server.request('GET', `/api/v1/content/${ws.slug}/${p}`, { token: owner.token });
      return res.status === 200;
    }, 30_000);
  }
}, 60_000);

afterAll(() => server.close());

it('renders buttons, image sizes, heading ids and a paragraph class, keeping only safe attributes', async () => {
  const res = await get(server, `/p/${ws.slug}/docs/`);
  expect(res.status).toBe(200);
  const html = article(res.text);
  expect(html).toMatch(/<a href="\/p\/attr-lists\/docs\/setup" class="md-button">Get started<\/a>/);
  expect(html).toContain('class="md-button md-button--primary"');
  expect(html).toMatch(/<img src="[^"]*screen\.png" alt="Screen" width="300" align="left"/);
  expect(html).toContain('<h2 id="custom-id">Install it</h2>');
  expect(html).toContain('<a class="header-anchor" href="#custom-id"');
  // Folio's own layout classes cannot be borrowed; MkDocs Material's may be.
  expect(html).toContain('<h2 class="md-card" id="layout">Layout</h2>');
  expect(html).toContain('<p id="intro" class="md-note">Made of plain words</p>');
  for (const unsafe of ['onclick', 'style=', 'data-x', 'class="page', 'site-nav', '99999999', 'id="x"'])
    expect(html, unsafe).not.toContain(unsafe);
  // The image of absurd width keeps its source, without the size.
  expect(html).toMatch(/<img src="[^"]*screen\.png" alt="Wide" loading/);
});

it('leaves no attribute list in the text, and keeps braces that are prose', async () => {
  const res = await get(server, `/p/${ws.slug}/docs/`);
  const words = text(res.text);
  for (const leftover of ['{ .', '{: ', '{ #', '{ width', '.md-button', '#custom-id }'])
    expect(words, leftover).not.toContain(leftover);
  expect(words).toContain('Prose keeps {braces} and');
  expect(words).toContain('{that is not a list}');
});

it("gives the site's search the heading's own id and a text without the list", async () => {
  const res = await get(server, `/p/${ws.slug}/search.json?q=install`);
  expect(res.status).toBe(200);
  const body = JSON.parse(res.text);
  const hit = body.results[0].hits.find((h: { heading: string }) => h.heading === 'Install it');
  expect(hit).toMatchObject({ heading: 'Install it', anchor: 'custom-id' });
  expect(JSON.stringify(body)).not.toContain('{ #');
});
