/**
 * Imports: a Notion and a Confluence export turned into pages and uploads through the
 * HTTP route (a job with progress and a report) and through `folio import`, each as one
 * commit authored by the person importing, which reverting undoes.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';
import { get, startPublishing } from '../publishing/publishing-helpers.js';
import { CONFLUENCE_FILES, NOTION_FILES, zipOf } from './export-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();

async function postImport(server: TestServer, user: TestUser, ws: TestWorkspace, zip: Buffer, query = '') {
  const res = await fetch(`${server.url}/api/v1/workspaces/${ws.id}/imports${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function finished(server: TestServer, user: TestUser, ws: TestWorkspace, id: string): Promise<any> {
  let job: any;
  await eventually(async () => {
    const res = await server.request('GET', `/api/v1/workspaces/${ws.id}/imports/${id}`, {
      token: user.token,
    });
    job = res.body;
    return res.status === 200 && (job.status === 'done' || job.status === 'failed');
  }, 30_000);
  return job;
}

async function body(server: TestServer, user: TestUser, ws: TestWorkspace, p: string): Promise<string> {
  const res = await server.request('GET', `/api/v1/content/${ws.slug}/${p}`, { token: user.token });
  expect(res.status, p).toBe(200);
  return res.body.content as string;
}

describe('imports over HTTP', () => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startPublishing();
    owner = await registerUser(server, { name: 'Ines Importer' });
  }, 60_000);
  afterAll(() => server.close());

  it('imports a Notion export: names without ids, links fixed, sub-pages as folders, images as uploads, databases as tables', async () => {
    const ws = await createWorkspace(server, owner, 'notion');
    const dir = path.join(server.dataDir, 'workspaces', ws.id);
    const commits = () => {
      try {
        return Number(git(dir, 'rev-list', '--count', 'HEAD'));
      } catch {
        return 0; // a new workspace's repository has no commit yet
      }
    };
    const before = commits();
    const started = await postImport(server, owner, ws, await zipOf(NOTION_FILES), '?publish=true');
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ id: expect.any(String), status: 'importing' });
    const job = await finished(server, owner, ws, started.body.id);
    expect(job.status).toBe('done');
    expect(job.progress).toEqual({ done: 6, total: 6 });
    const report = job.report;
    expect(report.from).toBe('notion');
    expect(report.converted.map((c: any) => c.path).sort()).toEqual([
      'team-wiki/index.md',
      'team-wiki/onboarding.md',
      'team-wiki/tasks/index.md',
      'team-wiki/tasks/write-docs.md',
      'uploads/diagram.png',
    ]);
    expect(report.kept).toEqual([
      expect.objectContaining({ source: expect.stringMatching(/Tasks [0-9a-f]{32}\.csv$/) }),
    ]);
    expect(report.dropped).toEqual([
      {
        source: expect.stringMatching(/movie\.mp4$/),
        reason: expect.stringContaining('Unsupported file type'),
      },
    ]);

    const wiki = await body(server, owner, ws, 'team-wiki/index.md');
    expect(wiki).toContain('Start with [Onboarding](onboarding.md) and track the [Tasks](tasks/index.md).');
    expect(wiki).toContain('![diagram.png](../uploads/diagram.png)');
    expect(wiki).toContain('[Notion](https://www.notion.so/example)');
    expect(wiki).not.toMatch(/# Team Wiki|[0-9a-f]{32}/);
    expect(await body(server, owner, ws, 'team-wiki/onboarding.md')).toContain(
      'Back to [Team Wiki](index.md).',
    );
    const tasks = await body(server, owner, ws, 'team-wiki/tasks/index.md');
    expect(tasks).toContain(
      '| Name | Status | Tags |\n| --- | --- | --- |\n| Write docs | Done | docs, writing |',
    );
    expect(tasks).toContain('| Ship it | In progress | release \\| v2 |');
    expect(tasks).toContain('- [Write docs](write-docs.md)');

    // The site shows the image and follows the links.
    await server.request('PUT', `/api/v1/workspaces/${ws.id}/admin/settings`, {
      token: owner.token,
      body: { public_site: true },
    });
    const site = await get(server, '/p/notion/team-wiki/');
    expect(site.status).toBe(200);
    const src = /<img[^>]+src="([^"]+diagram\.png)"/.exec(site.text)?.[1];
    expect(src).toBeDefined();
    expect((await get(server, new URL(src!, `${server.url}/p/notion/team-wiki/`).pathname)).status).toBe(200);
    expect(site.text).toContain('href="/p/notion/team-wiki/onboarding"');

    // One commit, by the importer, holding every file; reverting it takes the import away.
    // (Opening the repository for its first commit also commits Folio's .gitignore.)
    expect(commits()).toBeLessThanOrEqual(before + 2);
    expect(git(dir, 'log', '--format=%s', '--', 'team-wiki', 'uploads').split('\n')).toHaveLength(1);
    expect(git(dir, 'log', '-1', '--format=%an <%ae>|%s')).toBe(
      `Ines Importer <${owner.email}>|docs: import notion export (4 pages, 1 upload)`,
    );
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual(
      [...report.converted.map((c: any) => c.path)].sort(),
    );
    git(dir, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'revert', '--no-edit', 'HEAD');
    expect(fs.existsSync(path.join(dir, 'team-wiki'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'uploads/diagram.png'))).toBe(false);
  });

  it('imports a Confluence export: the page tree as folders, panels as callouts, code, expand and attachments', async () => {
    const ws = await createWorkspace(server, owner, 'wiki');
    const started = await postImport(server, owner, ws, await zipOf(CONFLUENCE_FILES), '?into=space');
    expect(started.status).toBe(202);
    const job = await finished(server, owner, ws, started.body.id);
    expect(job.status).toBe('done');
    expect(job.report.from).toBe('confluence');
    expect(job.report.converted.map((c: any) => c.path).sort()).toEqual([
      'space/docs-home/faq-answers.md',
      'space/docs-home/getting-started/index.md',
      'space/docs-home/getting-started/install.md',
      'space/docs-home/index.md',
      'uploads/screenshot.png',
    ]);
    expect(job.report.dropped.map((d: any) => d.source).sort()).toEqual([
      'DOCS/images/icons/bullet_blue.gif',
      'DOCS/styles/site.css',
    ]);
    const page = await server.request(
      'GET',
      `/api/v1/content/${ws.slug}/space/docs-home/getting-started/index.md`,
      {
        token: owner.token,
      },
    );
    expect(page.body.title).toBe('Getting started');
    expect(page.body.content).toBe(
      [
        'Read [the install guide](install.md) first.',
        '',
        '> [!NOTE]',
        '> **Before you start**',
        '> You need an account.',
        '',
        '> [!CAUTION]',
        '> Do not delete the **main** branch.',
        '',
        '> [!TIP]',
        '> Use the CLI.',
        '',
        '```bash',
        'npm install',
        'npm start && echo ok',
        '```',
        '',
        '<details>',
        '<summary>Troubleshooting</summary>',
        '',
        'Restart it.',
        '',
        '</details>',
        '',
        '![](../../../uploads/screenshot.png)',
        '',
        '| Key | Value |',
        '| --- | --- |',
        '| port | 3000 |',
        '',
      ].join('\n'),
    );
    expect(await body(server, owner, ws, 'space/docs-home/getting-started/install.md')).toContain(
      'Back to [Getting started](index.md).',
    );
    const faq = await server.request('GET', `/api/v1/content/${ws.slug}/space/docs-home/faq-answers.md`, {
      token: owner.token,
    });
    expect(faq.body.title).toBe('FAQ & answers');
    const dir = path.join(server.dataDir, 'workspaces', ws.id);
    expect(git(dir, 'log', '-1', '--format=%an|%s')).toBe(
      'Ines Importer|docs: import confluence export (4 pages, 1 upload)',
    );
  });

  it('never overwrites a page: a taken path gets a new name', async () => {
    const ws = await createWorkspace(server, owner, 'taken');
    const zip = await zipOf(CONFLUENCE_FILES);
    await finished(server, owner, ws, (await postImport(server, owner, ws, zip)).body.id);
    const again = await finished(server, owner, ws, (await postImport(server, owner, ws, zip)).body.id);
    expect(again.report.converted.map((c: any) => c.path)).toContain('docs-home-2/index.md');
    expect(again.report.converted.map((c: any) => c.path)).toContain('docs-home/faq-answers-2.md');
  });

  it('refuses what is not a ZIP export with 400, and a viewer with 403', async () => {
    const ws = await createWorkspace(server, owner, 'refused');
    const notZip = await postImport(server, owner, ws, Buffer.from('hello'));
    expect(notZip.status).toBe(400);
    expect(notZip.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'file' } });
    const badFrom = await postImport(server, owner, ws, await zipOf(NOTION_FILES), '?from=word');
    expect(badFrom.status).toBe(400);
    expect(badFrom.body.error).toBe('VALIDATION_ERROR');
    const escape = await postImport(server, owner, ws, await zipOf(NOTION_FILES), '?into=docs/../..');
    expect(escape.status).toBe(400);
    expect(escape.body.message).toContain('into must be a folder of the workspace');
    const viewer = await registerUser(server);
    await grantRole(server, ws, viewer, 'viewer');
    const denied = await postImport(server, viewer, ws, await zipOf(NOTION_FILES));
    expect(denied.status).toBe(403);
    const other = await server.request('GET', `/api/v1/workspaces/${ws.id}/imports/nope`, {
      token: owner.token,
    });
    expect(other.status).toBe(404);
  });
});

describe('folio import', () => {
  it('imports a Notion ZIP and a Confluence folder as the given user, one commit each', async () => {
    const dataDir = tempDir();
    const server = await startServer({ dataDir });
    const owner = await registerUser(server, { name: 'Cli Person' });
    const ws = await createWorkspace(server, owner, 'cli');
    await server.close();

    const work = tempDir('folio-import-');
    const zipPath = path.join(work, 'Export-1234.zip');
    fs.writeFileSync(zipPath, await zipOf(NOTION_FILES));
    const notion = await runCli(
      ['import', zipPath, '--workspace', 'cli', '--as', owner.email, '--json'],
      { DATA_DIR: dataDir },
      { timeoutMs: 90_000 },
    );
    expect(notion.stderr).toBe('');
    expect(notion.code).toBe(0);
    const report = JSON.parse(notion.stdout);
    expect(report.from).toBe('notion');
    expect(report.converted).toHaveLength(5);
    expect(report.dropped).toHaveLength(1);

    const folder = path.join(work, 'confluence');
    for (const [name, data] of Object.entries(CONFLUENCE_FILES)) {
      fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      fs.writeFileSync(path.join(folder, name), data);
    }
    const confluence = await runCli(
      ['import', folder, '--workspace', 'cli', '--from', 'confluence', '--into', 'wiki', '--as', owner.email],
      { DATA_DIR: dataDir },
      { timeoutMs: 90_000 },
    );
    expect(confluence.code).toBe(0);
    expect(confluence.stdout).toContain('Imported a confluence export into cli');
    expect(confluence.stdout).toContain(
      'DOCS/Getting-started_65538.html -> wiki/docs-home/getting-started/index.md',
    );
    expect(confluence.stdout).toContain('Dropped (2):');

    const dir = path.join(dataDir, 'workspaces', ws.id);
    expect(git(dir, 'log', '-2', '--format=%an <%ae>|%s').split('\n')).toEqual([
      `Cli Person <${owner.email}>|docs: import confluence export (4 pages, 1 upload)`,
      `Cli Person <${owner.email}>|docs: import notion export (4 pages, 1 upload)`,
    ]);
    expect(fs.readFileSync(path.join(dir, 'wiki/docs-home/getting-started/index.md'), 'utf8')).toContain(
      '> [!NOTE]',
    );

    const usage = await runCli(['import', zipPath], { DATA_DIR: dataDir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: folio import');
  }, 240_000);
});

describe('an import stopped by an error', () => {
  it('commits what it wrote, reports the failure, and writes nothing after it', async () => {
    // The Cloud edition's Free plan holds 50 pages: the 50th page of this export is refused.
    const server = await startServer({ env: { EDITION: 'cloud' } });
    try {
      const owner = await registerUser(server, { name: 'Pat Plan' });
      const ws = await firstWorkspace(server, owner);
      const files: Record<string, string> = {};
      for (let i = 0; i < 60; i++) {
        files[`Note ${String(i).padStart(2, '0')} ${i.toString(16).padStart(32, '0')}.md`] =
          `# Note ${i}\n\nText.\n`;
      }
      const started = await postImport(server, owner, ws, await zipOf(files));
      expect(started.status).toBe(202);
      const job = await finished(server, owner, ws, started.body.id);
      expect(job.status).toBe('failed');
      expect(job.error.error).toBe('PLAN_LIMIT_REACHED');
      const dir = path.join(server.dataDir, 'workspaces', ws.id);
      const imported = fs.readdirSync(dir).filter((f) => /^note-\d+\.md$/.test(f));
      expect(imported.length).toBeGreaterThan(40);
      expect(imported.length).toBeLessThan(60);
      expect(git(dir, 'log', '-1', '--format=%an|%s')).toBe(
        'Pat Plan|docs: import notion export (stopped by an error)',
      );
      // Every page the import wrote is in that commit (the starter page is not the import's).
      expect(git(dir, 'status', '--porcelain')).not.toMatch(/note-/);
      expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual(
        imported.sort(),
      );
    } finally {
      await server.close();
    }
  }, 120_000);
});
