import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  isInside,
  isPagePath,
  keepPageExtension,
  normalizePagePath,
  shadowedPagePaths,
  normalizeUploadName,
  pageUrlPath,
  parentFolder,
  resolveInside,
  suffixUploadName,
} from './paths.js';

function expectInvalidPath(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION_ERROR');
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).details).toEqual({ field: 'path' });
    return;
  }
  throw new Error('expected normalizePagePath to throw');
}

describe('normalizePagePath', () => {
  it.each([
    ['guides/setup', 'guides/setup.md'],
    ['guides/setup.md', 'guides/setup.md'],
    ['guides/setup.MD', 'guides/setup.md'],
    ['/guides/setup', 'guides/setup.md'],
    ['  index  ', 'index.md'],
    ['notes/v1.2', 'notes/v1.2.md'],
    ['Getting Started', 'Getting Started.md'],
    ['uploads-guide/moves', 'uploads-guide/moves.md'],
    ['docs/Über', 'docs/Über.md'],
    ['guides/move', 'guides/move.md'],
    ['data/tree.md', 'data/tree.md'],
    ['a/uploads/reorder', 'a/uploads/reorder.md'],
    ['docs/tabs.mdx', 'docs/tabs.mdx'],
    ['docs/tabs.MDX', 'docs/tabs.mdx'],
    ['/docs/index.mdx', 'docs/index.mdx'],
  ])('%j -> %j', (input, expected) => {
    expect(normalizePagePath(input)).toBe(expected);
  });

  it('composes decomposed Unicode (NFD) into NFC', () => {
    const nfd = 'cafe\u0301';
    expect(normalizePagePath(nfd)).toBe('caf\u00e9.md');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['lone slash', '/'],
    ['dot-dot', '../etc/passwd'],
    ['dot-dot inside', 'a/../../b'],
    ['dot segment', './a'],
    ['double leading slash', '//server/share'],
    ['drive letter', 'C:/Windows/x'],
    ['drive letter without slash', 'c:foo'],
    ['backslash', 'guides\\setup'],
    ['NUL', 'a\u0000b'],
    ['newline', 'a\nb'],
    ['DEL', 'a\u007fb'],
    ['hidden file', '.env'],
    ['hidden folder', '.git/config'],
    ['hidden nested', 'a/.folio/workspace'],
    ['empty segment', 'a//b'],
    ['trailing slash', 'guides/'],
    ['reserved first segment', 'uploads/a'],
    ['reserved page name', 'tree'],
    ['reserved page name with .md', 'reorder.md'],
    ['reserved name, other case', 'Uploads/x'],
    ['bare extension', '.md'],
    ['wikilink-breaking pipe', 'a|b'],
    ['wikilink-breaking hash', 'a#b'],
    ['question mark', 'what?'],
    ['segment ending in dot', 'v1./x'],
    ['segment with trailing space', 'a /b'],
  ])('refuses %s', (_label, input) => {
    expectInvalidPath(() => normalizePagePath(input));
  });

  it('refuses names over 255 bytes, counting UTF-8 bytes', () => {
    expect(normalizePagePath('a'.repeat(252))).toHaveLength(255);
    expectInvalidPath(() => normalizePagePath('a'.repeat(253)));
    // 'é' is two bytes: 126 * 2 + 3 = 255 fits, 127 * 2 + 3 = 257 does not
    expect(normalizePagePath('é'.repeat(126))).toBe(`${'é'.repeat(126)}.md`);
    expectInvalidPath(() => normalizePagePath('é'.repeat(127)));
  });

  it('refuses paths over 1024 bytes', () => {
    const seg = 'a'.repeat(200);
    const ok = [seg, seg, seg, seg, 'b'.repeat(200)].join('/'); // 1004 + 3 bytes
    expect(normalizePagePath(ok)).toHaveLength(1007);
    expectInvalidPath(() => normalizePagePath(`${ok}/${'c'.repeat(20)}`));
  });

  it('refuses non-strings', () => {
    expectInvalidPath(() => normalizePagePath(42 as unknown as string));
  });
});

describe('pageUrlPath and parentFolder', () => {
  it.each([
    ['guides/setup.md', 'guides/setup'],
    ['index.md', ''],
    ['guides/index.md', 'guides'],
    ['guides/index-of-things.md', 'guides/index-of-things'],
    ['a/b/index.md', 'a/b'],
    ['docs/tabs.mdx', 'docs/tabs'],
    ['docs/index.mdx', 'docs'],
  ])('pageUrlPath(%j) = %j', (input, expected) => {
    expect(pageUrlPath(input)).toBe(expected);
  });

  it.each([
    ['guides/setup.md', 'guides'],
    ['a/b/c.md', 'a/b'],
    ['root.md', ''],
  ])('parentFolder(%j) = %j', (input, expected) => {
    expect(parentFolder(input)).toBe(expected);
  });
});

describe('page extensions', () => {
  it('takes .md and .mdx files as pages, and no other file', () => {
    expect(['a.md', 'a.MD', 'b/c.mdx', 'c.Mdx'].every(isPagePath)).toBe(true);
    expect(['a.mdxx', 'a.markdown', 'a.md.png', 'mdx'].some(isPagePath)).toBe(false);
  });

  it('names the .mdx pages a .md of the same name shadows', () => {
    expect([...shadowedPagePaths(['a.md', 'a.mdx', 'b.mdx', 'c/a.mdx'])]).toEqual(['a.mdx']);
  });

  it('keeps a page extension on a move target that names none', () => {
    expect(keepPageExtension('guides/renamed', 'docs/tabs.mdx')).toBe('guides/renamed.mdx');
    expect(keepPageExtension('guides/renamed.md', 'docs/tabs.mdx')).toBe('guides/renamed.md');
    expect(keepPageExtension('guides/renamed', 'docs/tabs.md')).toBe('guides/renamed.md');
  });
});

describe('isInside', () => {
  it('accepts the root and paths below it', () => {
    expect(isInside('/data/ws', '/data/ws')).toBe(true);
    expect(isInside('/data/ws', '/data/ws/a/b.md')).toBe(true);
    expect(isInside('/data/ws/', '/data/ws/x/../y')).toBe(true);
  });

  it('refuses siblings sharing a prefix, parents and traversal', () => {
    expect(isInside('/data/ws', '/data/ws2/a.md')).toBe(false);
    expect(isInside('/data/ws', '/data')).toBe(false);
    expect(isInside('/data/ws', '/data/ws/../other')).toBe(false);
  });

  it('accepts names that merely start with two dots', () => {
    expect(isInside('/data/ws', '/data/ws/..notes.md')).toBe(true);
  });
});

describe('resolveInside', () => {
  let base: string;
  let root: string;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'folio-paths-'));
    root = path.join(base, 'ws');
    await mkdir(path.join(root, 'guides'), { recursive: true });
    await mkdir(path.join(base, 'outside'));
    await writeFile(path.join(base, 'outside', 'secret.md'), 'secret');
    await symlink(path.join(base, 'outside'), path.join(root, 'escape-dir'));
    await symlink(path.join(base, 'outside', 'secret.md'), path.join(root, 'escape-file.md'));
    await symlink(path.join(root, 'guides'), path.join(root, 'inner-link'));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('returns the absolute path for files inside, existing or not', async () => {
    expect(await resolveInside(root, 'guides/setup.md')).toBe(path.join(root, 'guides/setup.md'));
    expect(await resolveInside(root, 'new/deep/page.md')).toBe(path.join(root, 'new/deep/page.md'));
  });

  it('refuses lexical escapes and absolute paths', async () => {
    await expect(resolveInside(root, '../outside/secret.md')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(resolveInside(root, '/etc/passwd')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(resolveInside(root, 'a\u0000b')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('refuses paths through a symlinked folder that leads outside, even for new files', async () => {
    await expect(resolveInside(root, 'escape-dir/secret.md')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(resolveInside(root, 'escape-dir/new/x.md')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('refuses a symlinked file that points outside', async () => {
    await expect(resolveInside(root, 'escape-file.md')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('allows symlinks that stay inside the root', async () => {
    expect(await resolveInside(root, 'inner-link/x.md')).toBe(path.join(root, 'inner-link/x.md'));
  });

  it('works when the root itself does not exist yet', async () => {
    const fresh = path.join(base, 'not-yet');
    expect(await resolveInside(fresh, 'a.md')).toBe(path.join(fresh, 'a.md'));
  });

  it('follows a root that moved after its real path was remembered, and still refuses escapes', async () => {
    const moving = path.join(base, 'moving');
    await mkdir(path.join(moving, 'docs'), { recursive: true });
    expect(await resolveInside(moving, 'docs/a.md')).toBe(path.join(moving, 'docs/a.md'));
    // The data directory moved to another disk and a symlink left in its place.
    const elsewhere = path.join(base, 'elsewhere');
    await rename(moving, elsewhere);
    await symlink(elsewhere, moving);
    await symlink(path.join(base, 'outside'), path.join(elsewhere, 'out'));
    expect(await resolveInside(moving, 'docs/a.md')).toBe(path.join(moving, 'docs/a.md'));
    await expect(resolveInside(moving, 'out/secret.md')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(resolveInside(root, 'escape-dir/secret.md')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });
});

describe('normalizeUploadName', () => {
  it.each([
    ['My Photo (1).PNG', 'my-photo-1.png'],
    ['Mon Café.jpg', 'mon-cafe.jpg'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\Report Final.PDF', 'report-final.pdf'],
    ['.htaccess', 'htaccess'],
    ['archive.tar.gz', 'archive-tar.gz'],
    ['日本語.png', 'file.png'],
    ['', 'file'],
    ['noext', 'noext'],
    ['weird.ext with space', 'weird-ext-with-space'],
    ['---a---.txt', 'a.txt'],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeUploadName(input)).toBe(expected);
  });

  it('bounds the length of the stem', () => {
    const name = normalizeUploadName(`${'x'.repeat(500)}.png`);
    expect(name).toBe(`${'x'.repeat(100)}.png`);
  });

  it('produces only safe characters', () => {
    for (const input of ['a b/c\\d:e*f?g"h<i>j|k', '\u0000evil\n.png', 'ÀÉÎ õ ü.GIF']) {
      expect(normalizeUploadName(input)).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+)?$/);
    }
  });

  it('suffixUploadName inserts before the extension', () => {
    expect(suffixUploadName('photo.png', '2')).toBe('photo-2.png');
    expect(suffixUploadName('readme', 'x1')).toBe('readme-x1');
  });
});
