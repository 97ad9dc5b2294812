/**
 * The production build: `npm run build` bundles the CLI and server into dist/folio.js
 * with chunks loaded on first use. This suite builds into its own directory and drives
 * the result as users do, over HTTP and MCP stdio, so a bundling mistake (a dependency
 * that cannot be bundled, a lazily loaded chunk that fails to load) fails here rather
 * than on a user's machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { request, tempDir } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';
import { createPage, createWorkspace } from '../helpers/workspace-access.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

describe('the production build', () => {
  // Inside the project, so the bundle resolves its external packages from node_modules.
  const outDir = path.join(ROOT, 'node_modules', '.cache', `folio-build-${process.pid}`);
  const entry = path.join(outDir, 'folio.js');
  const dataDir = tempDir();
  let server: ChildProcess;
  let url: string;
  const api = {
    request: (method: string, urlPath: string, options?: Parameters<typeof request>[3]) =>
      request(url, method, urlPath, options),
  };
  let log = '';

  beforeAll(async () => {
    // The web app's Vite build is part of it, which takes a while on a busy machine.
    const build = await runCli([outDir], {}, { entry: 'scripts/build.mjs', timeoutMs: 240_000 });
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [entry, 'serve'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    for (let i = 0; i < 200; i++) {
      const ok = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the built server did not become healthy:\n${log}`);
  }, 300_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const closed = new Promise((r) => server.once('close', r));
      server.kill('SIGTERM');
      await closed;
    }
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('is one entry file plus chunks, with the Markdown renderer kept out of the entry', () => {
    const chunks = fs.readdirSync(path.join(outDir, 'chunks')).filter((f) => f.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(0);
    const main = fs.readFileSync(entry, 'utf8');
    // highlight.js registers its languages by these names; they must only be in a lazy chunk.
    expect(main).not.toContain('hljs-keyword');
    expect(
      chunks.some((c) => fs.readFileSync(path.join(outDir, 'chunks', c), 'utf8').includes('hljs-keyword')),
    ).toBe(true);
  });

  /**
   * What a file of the (CommonJS) bundle requires when it loads: its top-level
   * `var import_x = require("…")`, not the `require` esbuild puts in a promise for `import()`.
   */
  const STATIC_REQUIRE = /\bvar import_\w+=(?:__toESM\()?require\("([^"]+)"\)/g;

  /** The files loaded at start: folio.js and the chunks it requires statically, transitively. */
  function startUpFiles(): string[] {
    const files = ['folio.js'];
    for (const file of files) {
      const text = fs.readFileSync(path.join(outDir, file), 'utf8');
      for (const m of text.matchAll(STATIC_REQUIRE)) {
        if (!m[1]!.startsWith('.')) continue;
        const found = path.posix.join(path.posix.dirname(file), m[1]!);
        if (!files.includes(found)) files.push(found);
      }
    }
    return files;
  }

  it('loads ASCII-only code at start, so V8 keeps its source at one byte a character', () => {
    const files = startUpFiles();
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const text = fs.readFileSync(path.join(outDir, file), 'utf8');
      const at = text.search(/\P{ASCII}/u);
      expect(at === -1 ? '' : `${file}: ${text.slice(Math.max(0, at - 40), at + 10)}`).toBe('');
    }
    // The licence comments the minifier took out of the start-up code are kept beside it.
    const legal = files.filter((file) => fs.existsSync(path.join(outDir, `${file}.LEGAL.txt`)));
    expect(legal).not.toEqual([]);
    for (const file of legal)
      expect(fs.readFileSync(path.join(outDir, `${file}.LEGAL.txt`), 'utf8')).toMatch(/License|copyright/i);
  });

  it('leaves out of the start-up code what only some requests need', () => {
    // The source maps name every module a file holds, relative to the map: made absolute,
    // since the build sits inside node_modules/.cache and its relative paths skip that name.
    const modules = startUpFiles().flatMap((file) =>
      (
        JSON.parse(fs.readFileSync(path.join(outDir, `${file}.map`), 'utf8')) as { sources: string[] }
      ).sources.map((source) => path.resolve(path.dirname(path.join(outDir, file)), source)),
    );
    expect(modules.some((m) => m.includes('node_modules/fastify/'))).toBe(true);
    const lazy =
      /node_modules\/(?:katex|markdown-it-emoji|yaml|duplexify|readable-stream|@fastify\/busboy|@fastify\/swagger|fastify-type-provider-zod|ajv|ajv-formats|@fastify\/ajv-compiler|turndown|@mixmark-io\/domino|acorn|yazl|yauzl|minisearch|jose)\/|node_modules\/zod\/v4\/(?:locales\/(?!en\.js)|classic\/from-json-schema)/;
    expect(modules.filter((m) => lazy.test(m))).toEqual([]);

    // Packages left outside the bundle are not in the source maps: what keeps them out of
    // the start is that no start-up file requires them statically (they are required on
    // first use instead). better-sqlite3 is required at start, so the scan is seen to work.
    const imported = startUpFiles().flatMap((file) =>
      [...fs.readFileSync(path.join(outDir, file), 'utf8').matchAll(STATIC_REQUIRE)]
        .map((m) => m[1]!)
        .filter((name) => !name.startsWith('.')),
    );
    expect(imported).toContain('better-sqlite3');
    expect(imported.filter((name) => /^(?:@node-rs\/argon2|yaml)(?:\/|$)/.test(name))).toEqual([]);
  });

  it('registers the routes without compiling code at run time, which the code cache cannot hold', () => {
    const code = startUpFiles().map((file) => fs.readFileSync(path.join(outDir, file), 'utf8'));
    // The router is in the start-up code, with its two functions built without `new Function`.
    expect(code.some((text) => text.includes('_compileCreateParamsObject(params){'))).toBe(true);
    expect(code.some((text) => text.includes('function matchPrefix(path,i){'))).toBe(true);
    // (Its compiled-router mode, `routerOptions.compile`, is not used, so its code never runs.)
    const compiled = code.flatMap(
      (text) => text.match(/new Function\((?:"path","i",|"NullObject",fnBody)/g) ?? [],
    );
    expect(compiled).toEqual([]);
  });

  it('serves the API with the package version and renders a published page through the lazy renderer', async () => {
    const health = await request(url, 'GET', '/api/health');
    expect(health.body).toEqual({ status: 'ok', version: VERSION });

    const api = {
      request: (method: string, p: string, o?: Parameters<typeof request>[3]) => request(url, method, p, o),
    };
    const owner = await registerUser(api);
    const ws = await createWorkspace(api, owner, 'built');
    await createPage(api, owner, ws, 'guide.md', {
      title: 'Guide',
      body: '# Guide\n\n```ts\nconst answer: number = 42;\n```\n',
      publish: true,
    });
    const settings = await api.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: owner.token,
      body: { public_site: true },
    });
    expect(settings.status).toBe(200);

    const page = await fetch(`${url}/p/built/guide`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<span class="hljs-keyword">const</span>');
  });

  it('serves the web app built beside it: index.html for deep links, gzipped hashed assets', async () => {
    const deepLink = await fetch(`${url}/w/docs/guide.md`, { headers: { accept: 'text/html' } });
    expect(deepLink.status).toBe(200);
    const html = await deepLink.text();
    const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(html);
    expect(script, html).not.toBeNull();
    const asset = await fetch(`${url}${script![1]}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  /** Lists the tools of a bundled `folio mcp` over stdio and searches with them. */
  async function searchThroughMcp(args: string[]): Promise<string[]> {
    const client = new Client({ name: 'folio-build-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [entry, 'mcp', '--workspace', mcpUser.slug, '--api-key', mcpUser.key, ...args],
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      const found = await client.callTool({ name: 'svc_search', arguments: { query: 'welcome' } });
      expect(found.isError).not.toBe(true);
      return tools.map((t) => t.name);
    } finally {
      await client.close();
    }
  }
  const mcpUser = { slug: '', key: '' };

  it('runs the other commands: help, and `folio mcp` bridged to the server over stdio', async () => {
    const help = await runCli(['--help'], {}, { entry });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: folio <command>');

    const owner = await registerUser(api);
    mcpUser.key = (
      await api.request('POST', '/api/v1/api-keys', { token: owner.token, body: { name: 'mcp' } })
    ).body.key as string;
    mcpUser.slug = (await api.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0]
      .slug as string;
    expect(await searchThroughMcp(['--server-url', url])).toContain('svc_resolve_sync_conflict');
  });

  it('stops cleanly on SIGTERM', async () => {
    const closed = new Promise<number | null>((r) => server.once('close', r));
    server.kill('SIGTERM');
    expect(await closed).toBe(0);
    expect(log).toContain('shutting down');
  });

  it('runs `folio mcp` in-process on DATA_DIR once the server has stopped', async () => {
    const tools = await searchThroughMcp([]);
    expect(tools).toContain('svc_search');
    expect(tools).not.toContain('svc_resolve_sync_conflict');
  });
});
