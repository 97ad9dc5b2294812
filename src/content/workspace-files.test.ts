import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceFiles } from './workspace-files.js';

let base: string;
let root: string;
let files: WorkspaceFiles;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'folio-ws-'));
  root = path.join(base, 'ws');
  await mkdir(root);
  files = new WorkspaceFiles(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function put(rel: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), text);
}

describe('read and write', () => {
  it('writes a canonical page file and reads it back', async () => {
    const text = await files.write(
      'guides/setup.md',
      { title: 'Setup', id: '01H', tags: ['a'] },
      '# Setup\n',
    );
    expect(text).toBe('---\nid: 01H\ntitle: Setup\ntags:\n  - a\n---\n\n# Setup\n');
    expect(await readFile(path.join(root, 'guides/setup.md'), 'utf8')).toBe(text);
    expect(await files.read('guides/setup.md')).toEqual({
      text,
      frontmatter: { id: '01H', title: 'Setup', tags: ['a'] },
      body: '# Setup\n',
    });
  });

  it('returns null for missing files, folders and paths under a file', async () => {
    await put('page.md', 'x');
    expect(await files.read('missing.md')).toBeNull();
    await mkdir(path.join(root, 'folder'));
    expect(await files.read('folder')).toBeNull();
    expect(await files.read('page.md/child.md')).toBeNull();
  });

  it('reports invalid frontmatter without throwing', async () => {
    await put('bad.md', '---\ntitle: [oops\n---\nBody\n');
    const page = await files.read('bad.md');
    expect(page?.body).toBe('Body\n');
    expect(page?.error).toMatch(/Invalid frontmatter/);
  });

  it('reads a FIFO in the tree as no file, without waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe.md')]);
    expect(await files.read('pipe.md')).toBeNull();
    expect(await files.readRaw('pipe.md')).toBeNull();
  });

  it('creates the folders a write names, and writes into existing ones', async () => {
    await files.writeRaw('a/b/c/page.md', 'deep');
    await files.writeRaw('a/b/sibling.md', 'near');
    expect(await readFile(path.join(root, 'a/b/c/page.md'), 'utf8')).toBe('deep');
    expect(await readFile(path.join(root, 'a/b/sibling.md'), 'utf8')).toBe('near');
    // No temp file is left beside either.
    expect((await readdir(path.join(root, 'a/b'))).sort()).toEqual(['c', 'sibling.md']);
  });

  it('reads and writes raw bytes', async () => {
    await files.writeRaw('uploads/pic.png', Buffer.from([137, 80, 78, 71]));
    expect([...((await files.readRaw('uploads/pic.png')) ?? [])]).toEqual([137, 80, 78, 71]);
  });
});

describe('containment', () => {
  it.each(['../escape.md', 'a/../../escape.md', '/etc/passwd', '', 'folder/'])('refuses %j', async (p) => {
    await expect(files.read(p)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(files.write(p, { title: 'x' }, 'x')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('refuses to follow a symlink out of the workspace, for reads and writes', async () => {
    const outside = path.join(base, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.md'), 'secret');
    await symlink(outside, path.join(root, 'linked'));
    await expect(files.read('linked/secret.md')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(files.write('linked/new.md', {}, 'x')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(files.remove('linked/secret.md')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(files.move('linked/secret.md', 'mine.md')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(await readdir(outside)).toEqual(['secret.md']);
  });
});

describe('remove, move, exists, stat', () => {
  it('removes a page and the folders it leaves empty, but not the root', async () => {
    await put('a/b/page.md', 'x');
    await put('a/other.md', 'y');
    expect(await files.remove('a/b/page.md')).toBe(true);
    expect(await readdir(path.join(root, 'a'))).toEqual(['other.md']);
    expect(await files.remove('a/other.md')).toBe(true);
    expect(await readdir(root)).toEqual([]);
    expect(await files.remove('a/other.md')).toBe(false);
  });

  it('moves a page into a new folder and prunes the old one', async () => {
    await put('old/page.md', 'content');
    await files.move('old/page.md', 'new/place/page.md');
    expect(await readFile(path.join(root, 'new/place/page.md'), 'utf8')).toBe('content');
    expect(await readdir(root)).toEqual(['new']);
  });

  it('refuses to move a missing page or onto an existing one', async () => {
    await put('a.md', 'A');
    await put('b.md', 'B');
    await expect(files.move('missing.md', 'c.md')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(files.move('a.md', 'b.md')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await readFile(path.join(root, 'b.md'), 'utf8')).toBe('B');
  });

  it('exists and stat see regular files only', async () => {
    await put('dir/page.md', '12345');
    expect(await files.exists('dir/page.md')).toBe(true);
    expect(await files.exists('dir')).toBe(false);
    expect(await files.exists('nope.md')).toBe(false);
    const s = await files.stat('dir/page.md');
    expect(s?.size).toBe(5);
    expect(s?.mtime.getTime()).toBe((await stat(path.join(root, 'dir/page.md'))).mtime.getTime());
    expect(await files.stat('nope.md')).toBeNull();
  });
});

describe('listPages and walk', () => {
  it('lists every .md page sorted, skipping hidden entries, uploads, other files and symlinks', async () => {
    await put('index.md', '');
    await put('guides/setup.md', '');
    await put('guides/advanced/deep.md', '');
    await put('guides/uploads/nested-is-fine.md', '');
    await put('b.md', '');
    await put('notes.txt', '');
    await put('README.MD', '');
    await put('guides/tabs.mdx', '');
    await put('guides/tabs.MDX.bak', '');
    await put('.git/HEAD.md', '');
    await put('.folio/workspace.md', '');
    await put('guides/.hidden.md', '');
    await put('guides/.folio-tmp-123', '');
    await put('uploads/readme.md', '');
    const outside = path.join(base, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'x.md'), '');
    await symlink(outside, path.join(root, 'linked-dir'));
    await symlink(path.join(root, 'b.md'), path.join(root, 'alias.md'));

    const expected = [
      'b.md',
      'guides/advanced/deep.md',
      'guides/setup.md',
      'guides/tabs.mdx',
      'guides/uploads/nested-is-fine.md',
      'index.md',
    ];
    expect(await files.listPages()).toEqual(expected);
    const walked: string[] = [];
    for await (const p of files.walk()) walked.push(p);
    expect(walked.sort()).toEqual(expected);
  });

  it('is empty for an empty or missing root', async () => {
    expect(await files.listPages()).toEqual([]);
    expect(await new WorkspaceFiles(path.join(base, 'missing')).listPages()).toEqual([]);
  });
});

describe('readListed', () => {
  it('reads a listed page with its mtime, as read and stat do', async () => {
    await put('guides/a.md', '---\ntitle: A\n---\n\nBody\n');
    const listed = await files.readListed('guides/a.md');
    expect(listed?.file).toEqual(await files.read('guides/a.md'));
    expect(listed?.stat).toEqual(await files.stat('guides/a.md'));
    const big = `# Big\n\n${'é'.repeat(200_000)}\n`;
    await put('big.md', big);
    expect((await files.readListed('big.md'))?.file.body).toBe(big);
  });

  it('reads a file gone, a folder or a symlink swapped in as gone, and refuses escaping paths', async () => {
    const outside = path.join(base, 'secret.md');
    await writeFile(outside, 'secret');
    await symlink(outside, path.join(root, 'swapped.md'));
    await mkdir(path.join(root, 'folder.md'));
    expect(await files.readListed('missing.md')).toBeNull();
    expect(await files.readListed('swapped.md')).toBeNull();
    expect(await files.readListed('folder.md')).toBeNull();
    await expect(files.readListed('../secret.md')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
