/**
 * The production bundle with every optional feature on, started once as users start it
 * (`bin/folio.js serve` over dist/), and one route of each feature called: each lazily
 * loaded module (prom-client, the MCP SDK, @simplewebauthn/server, openid-client, stripe,
 * nodemailer, yjs, the Markdown renderer, swagger-ui, yazl, yauzl, MiniSearch, jose, yaml,
 * @node-rs/argon2, @fastify/busboy, KaTeX, pg and ioredis) is loaded here the way a user's
 * first request loads it. The feature suites run the TypeScript sources, which resolve
 * packages the way Node does; a bundling mistake only shows in the bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { TEST_DATABASE_URL, TEST_REDIS_URL, createPgSchema } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { startFakeAiServer, type FakeAiServer } from '../helpers/fake-ai-server.js';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe.js';
import { startOidcProvider, type RunningServer } from '../helpers/identity-providers.js';
import { mcpOverHttp } from '../helpers/mcp.js';
import { zipOf } from '../imports/export-fixtures.js';
import { freePort } from '../helpers/ports.js';
import type { TestServer } from '../helpers/server.js';
import { serverProcess, type ServerProcess } from '../helpers/server-process.js';
import { mailText, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { YjsTestClient } from '../coedit/yjs-client.js';

describe('the production bundle with every optional feature on', () => {
  let folio: ServerProcess;
  let ai: FakeAiServer;
  let stripe: FakeStripe;
  let smtp: TestSmtp;
  let idp: RunningServer;
  let dropSchema = async () => {};
  let metricsPort: number;
  let owner: TestUser;
  let workspace: { id: string; slug: string };

  beforeAll(async () => {
    const skipped = [
      ...(TEST_DATABASE_URL ? [] : ['PostgreSQL (TEST_DATABASE_URL is not set; SQLite is used)']),
      ...(TEST_REDIS_URL ? [] : ['Redis (TEST_REDIS_URL is not set; the in-process bus is used)']),
    ];
    if (skipped.length) console.warn(`[folio tests] all-features bundle run without ${skipped.join(', ')}`);
    let databaseUrl: string | undefined;
    if (TEST_DATABASE_URL) {
      const pg = await createPgSchema(TEST_DATABASE_URL);
      dropSchema = pg.cleanup;
      // The CLI has no schema option; PostgreSQL takes the search path from the URL.
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${pg.schema}`);
      databaseUrl = url.toString();
    }
    let port: number;
    [ai, stripe, smtp, metricsPort, port] = await Promise.all([
      startFakeAiServer(),
      startFakeStripe(),
      startSmtp(),
      freePort(),
      freePort(),
    ]);
    // The server's address is fixed before it starts, so the provider knows its callback.
    const url = `http://127.0.0.1:${port}`;
    idp = await startOidcProvider({
      clientId: 'folio-bundle',
      clientSecret: 'bundle-secret',
      redirectUri: `${url}/api/auth/oidc/google/callback`,
      accounts: [{ id: 'ada', email: 'ada@example.com', name: 'Ada' }],
    });
    folio = await serverProcess({
      port,
      env: {
        PUBLIC_URL: url,
        FF_METRICS: 'true',
        METRICS_PORT: String(metricsPort),
        FF_COEDIT: 'true',
        OIDC_GOOGLE_CLIENT_ID: 'folio-bundle',
        OIDC_GOOGLE_CLIENT_SECRET: 'bundle-secret',
        OIDC_GOOGLE_ISSUER: idp.url,
        WEBAUTHN_RP_ID: 'docs.example.test',
        WEBAUTHN_RP_ORIGINS: 'https://docs.example.test',
        EDITION: 'cloud',
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_BASE: stripe.url,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'folio@example.test',
        AI_PROVIDER: 'openai',
        AI_BASE_URL: ai.url,
        AI_API_KEY: 'sk-bundle-test',
        AI_MODEL: 'test-model',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL } : {}),
      },
    });
    await folio.start();
    owner = await registerUser(folio);
    workspace = await firstWorkspace(folio, owner);
  }, 120_000);

  afterAll(async () => {
    await folio?.stop();
    await Promise.all([ai?.close(), stripe?.close(), smtp?.close(), idp?.close()]);
    await dropSchema();
  });

  it('is ready on the database it was given', async () => {
    const ready = await folio.request('GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.database).toMatchObject({
      status: 'ok',
      dialect: TEST_DATABASE_URL ? 'postgres' : 'sqlite',
    });
  });

  it('serves metrics on /metrics to the platform owner and on METRICS_PORT (prom-client)', async () => {
    const metrics = await folio.request('GET', '/metrics', { token: owner.token });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('folio_process_cpu_user_seconds_total');
    const local = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('folio_http_requests_total');
  });

  it('answers MCP over /mcp to the official SDK client (MCP SDK)', async () => {
    const key = await folio.request('POST', '/api/v1/api-keys', {
      token: owner.token,
      body: { name: 'bundle', scopes: ['read'] },
    });
    expect(key.status).toBe(201);
    const client = await mcpOverHttp(`${folio.url}/mcp`, key.body.key);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('svc_search');
      const found = await client.callTool({
        name: 'svc_list_workspaces',
        arguments: {},
      });
      expect(found.isError).not.toBe(true);
      expect(JSON.stringify(found.structuredContent)).toContain(workspace.slug);
    } finally {
      await client.close();
    }
  });

  it('signs in with a password and refuses a wrong one or an unknown email (@node-rs/argon2)', async () => {
    const signIn = (email: string, password: string) =>
      folio.request('POST', '/api/auth/login', { body: { email, password } });
    const signedIn = await signIn(owner.email, owner.password);
    expect(signedIn.status).toBe(200);
    const me = await folio.request('GET', '/api/auth/me', { token: signedIn.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(owner.id);
    expect((await signIn(owner.email, 'not the password')).status).toBe(401);
    // Verified against a decoy hash, which is made on this first need.
    expect((await signIn('nobody@example.test', owner.password)).status).toBe(401);
  });

  it('begins a passkey registration (@simplewebauthn/server)', async () => {
    const begun = await folio.request('POST', '/api/auth/webauthn/register/begin', {
      token: owner.token,
      body: {},
    });
    expect(begun.status).toBe(200);
    expect(begun.body.rp.id).toBe('docs.example.test');
    expect(begun.body.challenge).toMatch(/^[\w-]{20,}$/);
  });

  it('starts an OpenID Connect sign-in at the provider it discovered (openid-client)', async () => {
    const started = await folio.request('POST', '/api/auth/oidc/google');
    expect(started.status).toBe(200);
    const to = new URL(started.body.url);
    expect(to.origin).toBe(idp.url);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('opens a Stripe checkout through the fake (stripe)', async () => {
    const checkout = await folio.request('POST', '/api/v1/billing/checkout', {
      token: owner.token,
      body: { plan: 'team' },
    });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toMatch(new RegExp(`^${stripe.url}/checkout/cs_test_`));
  });

  it('sends a password-reset mail through SMTP (nodemailer)', async () => {
    const asked = await folio.request('POST', '/api/auth/forgot-password', { body: { email: owner.email } });
    expect(asked.status).toBe(200);
    const mail = await smtp.next(30_000);
    expect(mail.to).toEqual([owner.email]);
    expect(mailText(mail)).toContain(`${folio.url}/reset-password?token=`);
  });

  it('answers documentation chat through the AI provider', async () => {
    const before = ai.requests.length;
    const chat = await folio.request('POST', '/api/v1/ai/chat', {
      token: owner.token,
      body: {
        messages: [{ role: 'user', content: 'What is in the welcome page?' }],
        workspace_id: workspace.id,
      },
    });
    expect(chat.status).toBe(200);
    expect(ai.requests.length).toBeGreaterThan(before);
  });

  it('joins a co-editing room over /ws (yjs)', async () => {
    const written = await folio.request('PUT', `/api/v1/content/${workspace.slug}/together.md`, {
      token: owner.token,
      body: { body: 'Written together.\n' },
    });
    expect(written.status).toBe(201);
    const { client, joined } = await YjsTestClient.join(
      folio as unknown as TestServer,
      owner,
      workspace.slug,
      'together.md',
    );
    try {
      expect(joined.type).toBe('yjs-joined');
      expect(client.text).toBe('Written together.\n');
    } finally {
      await client.close();
    }
  });

  it('renders a published page with highlighted code (the Markdown renderer)', async () => {
    const page = await folio.request('POST', `/api/v1/content/${workspace.slug}/guide.md`, {
      token: owner.token,
      body: { title: 'Guide', body: '# Guide\n\n```ts\nconst answer = 42;\n```\n', publish: true },
    });
    expect(page.status).toBe(201);
    const settings = await folio.request('PUT', `/api/v1/workspaces/${workspace.id}/admin/settings`, {
      token: owner.token,
      body: { public_site: true },
    });
    expect(settings.status).toBe(200);
    const html = await fetch(`${folio.url}/p/${workspace.slug}/guide`);
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('<span class="hljs-keyword">const</span>');
  });

  it('renders math and a diagram with the assets they need, and answers the search palette (katex, mermaid, the palette)', async () => {
    const page = await folio.request('POST', `/api/v1/content/${workspace.slug}/formulas.md`, {
      token: owner.token,
      body: {
        title: 'Formulas',
        body: '# Formulas\n\nEuler: $e^{i\\pi}+1=0$\n\n```mermaid\ngraph TD; A-->B\n```\n',
        publish: true,
      },
    });
    expect(page.status).toBe(201);
    // The site learns of the new page from the event bus, which may lag the 201 on a busy machine.
    let served = await fetch(`${folio.url}/p/${workspace.slug}/formulas`);
    for (let tries = 0; served.status === 404 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      served = await fetch(`${folio.url}/p/${workspace.slug}/formulas`);
    }
    expect(served.status).toBe(200);
    const html = await served.text();
    expect(html).toContain('class="katex');
    const linked = (pattern: RegExp) => {
      const found = pattern.exec(html)?.[1];
      expect(found, String(pattern)).toBeTruthy();
      return new URL(found!.replaceAll('&amp;', '&'), folio.url).href;
    };
    const katexCss = await fetch(linked(/<link rel="stylesheet" href="([^"]*katex[^"]*\.css)"/));
    expect(katexCss.status).toBe(200);
    expect(await katexCss.text()).toContain('.katex');
    const mermaid = await fetch(linked(/<script[^>]* src="([^"]*mermaid[^"]*\.js)"/));
    expect(mermaid.status).toBe(200);
    expect(mermaid.headers.get('content-type')).toMatch(/javascript/);
    const palette = await fetch(linked(/data-js="([^"]+)"/));
    expect(palette.status).toBe(200);
    expect((await palette.text()).length).toBeGreaterThan(500);
    const search = await fetch(`${folio.url}/p/${workspace.slug}/search.json?q=euler`);
    expect(search.status).toBe(200);
    const answer = (await search.json()) as { results: Array<{ path: string }> };
    expect(answer.results.map((r) => r.path)).toContain('formulas.md');
  });

  it('saves a page with frontmatter, patches it in place and reads it back (yaml)', async () => {
    const url = `/api/v1/content/${workspace.slug}/frontmatter.md`;
    const created = await folio.request('POST', url, {
      token: owner.token,
      body: { title: 'Frontmatter', description: 'Read back', tags: ['one', 'two'], body: 'As written.\n' },
    });
    expect(created.status).toBe(201);
    // A scalar changed on its line, a new nested key written through the YAML document.
    const patched = await folio.request('PUT', url, {
      token: owner.token,
      body: {
        lastKnownHash: created.body.content_hash,
        frontmatter: { title: 'Frontmatter, patched', extra: { nested: ['a', 'b'] } },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const read = await folio.request('GET', url, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      title: 'Frontmatter, patched',
      description: 'Read back',
      tags: ['one', 'two'],
      content: 'As written.\n',
      frontmatter_error: null,
    });
    const text = fs.readFileSync(
      path.join(folio.dataDir, 'workspaces', workspace.id, 'frontmatter.md'),
      'utf8',
    );
    const block = /^---\n([\s\S]*?)^---\n\nAs written\.\n$/m.exec(text);
    expect(block, text).not.toBeNull();
    expect(parseYaml(block![1]!)).toMatchObject({
      title: 'Frontmatter, patched',
      description: 'Read back',
      tags: ['one', 'two'],
      extra: { nested: ['a', 'b'] },
    });
  });

  it('writes a page of megabytes, its JSON parsed on a thread and its answer sent in slices', async () => {
    const url = `/api/v1/content/${workspace.slug}/megabytes.md`;
    const created = await folio.request('POST', url, { token: owner.token, body: { title: 'Megabytes' } });
    expect(created.status).toBe(201);
    const body = `${'Prose of a long page, caf\u00e9 \u{1F600}.\n'.repeat(70_000)}`;
    expect(Buffer.byteLength(body)).toBeGreaterThan(2 * 1024 * 1024);
    const saved = await folio.request('PUT', url, {
      token: owner.token,
      body: { lastKnownHash: created.body.content_hash, body },
    });
    expect(saved.status, saved.text.slice(0, 200)).toBe(200);
    expect(saved.body.content).toBe(body);
    expect(saved.text).toBe(JSON.stringify(saved.body));
    const text = fs.readFileSync(
      path.join(folio.dataDir, 'workspaces', workspace.id, 'megabytes.md'),
      'utf8',
    );
    expect(text.endsWith(`---\n${body}`)).toBe(true);
  });

  it("answers a workspace's MkDocs navigation from mkdocs.yml (yaml)", async () => {
    // A workspace of its own (the free plan has one per organization), its files written as a clone brings them.
    const writer = await registerUser(folio);
    const ws = await firstWorkspace(folio, writer);
    const root = path.join(folio.dataDir, 'workspaces', ws.id);
    const files: Record<string, string> = {
      'mkdocs.yml':
        'site_name: Bundle\nnav:\n  - Home: index.md\n  - Setup:\n      - Installing it: setup/install.md\n',
      'docs/index.md': '---\ntitle: Welcome\n---\n\nHome.\n',
      'docs/setup/install.md': '---\ntitle: Install\n---\n\nSteps.\n',
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    // Reading a page new on disk has the index catch up with the files.
    for (const page of ['docs/index.md', 'docs/setup/install.md'])
      await eventually(
        async () =>
          (await folio.request('GET', `/api/v1/content/${ws.slug}/${page}`, { token: writer.token }))
            .status === 200,
        30_000,
      );
    const nav = await folio.request('GET', `/api/v1/content/${ws.slug}/navigation`, { token: writer.token });
    expect(nav.status).toBe(200);
    expect(nav.body).toMatchObject({ following: 'mkdocs', file: 'mkdocs.yml' });
    expect(nav.body.items).toMatchObject([
      { type: 'page', title: 'Home', path: 'docs/index.md' },
      { title: 'Setup', children: [{ type: 'page', title: 'Installing it', path: 'docs/setup/install.md' }] },
    ]);
  });

  it('exports the site as a ZIP and reads a ZIP to import (yazl, yauzl)', async () => {
    const exported = await fetch(`${folio.url}/api/v1/workspaces/${workspace.id}/export`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(exported.status).toBe(200);
    const zip = Buffer.from(await exported.arrayBuffer());
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    // A ZIP that cannot be read is refused before the 202, so this one was opened.
    const started = await fetch(`${folio.url}/api/v1/workspaces/${workspace.id}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/zip' },
      body: zip,
    });
    expect(started.status, await started.clone().text()).toBe(202);
    expect(((await started.json()) as { status: string }).status).toMatch(/^(?:importing|done|failed)$/);
  });

  it('imports Markdown pages, reading their frontmatter in the import worker (yaml)', async () => {
    const zip = await zipOf({
      'imported/from-zip.md': '---\ntitle: From the ZIP\nauthor: Ada\n---\n\nImported.\n',
    });
    const started = await fetch(`${folio.url}/api/v1/workspaces/${workspace.id}/imports?from=obsidian`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/zip' },
      body: new Uint8Array(zip),
    });
    expect(started.status, await started.clone().text()).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const job = await eventually(async () => {
      const res = await folio.request('GET', `/api/v1/workspaces/${workspace.id}/imports/${id}`, {
        token: owner.token,
      });
      return res.body.status === 'done' || res.body.status === 'failed' ? res.body : null;
    }, 60_000);
    expect(job.error).toBeNull();
    expect(job.report.converted).toEqual([{ source: 'imported/from-zip.md', path: 'imported/from-zip.md' }]);
    // Only a parsed frontmatter block has keys other than the title to report.
    expect(job.report.kept).toEqual([
      {
        source: 'imported/from-zip.md',
        path: 'imported/from-zip.md',
        note: 'its other frontmatter keys were not carried over',
      },
    ]);
    const page = await folio.request('GET', `/api/v1/content/${workspace.slug}/imported/from-zip.md`, {
      token: owner.token,
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ title: 'From the ZIP', content: 'Imported.\n' });
  });

  it('takes an uploaded file as multipart form data and serves it back (@fastify/busboy)', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'pixel.png');
    const res = await fetch(`${folio.url}/api/v1/content/${workspace.slug}/uploads`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    const stored = await fetch(`${folio.url}${url}`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(stored.status).toBe(200);
    expect(Buffer.from(await stored.arrayBuffer())).toEqual(png);
  });

  it('serves the API reference page and its swagger-ui assets', async () => {
    const docs = await fetch(`${folio.url}/api/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/api/docs/static/');
    const asset = await fetch(`${folio.url}/api/docs/static/swagger-ui.css`);
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(1000);
  });
});
