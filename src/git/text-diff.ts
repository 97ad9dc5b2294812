/**
 * Line diffs of two texts, computed by git (`git diff --no-index`) so that Folio shows
 * exactly what git would, and returned both as unified diff text and as structured hunks.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runGit } from './git.js';

/** One line of a hunk: unchanged, added in the new text, or removed from the old. */
export interface DiffLine {
  kind: 'context' | 'added' | 'removed';
  /** Line number in the old text (null for an added line). */
  old_line: number | null;
  /** Line number in the new text (null for a removed line). */
  new_line: number | null;
  text: string;
}

export interface DiffHunk {
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  lines: DiffLine[];
}

export interface TextDiff {
  /** A unified diff (3 lines of context) with `--- a/<oldName>` and `+++ b/<newName>` headers; empty when equal. */
  unified: string;
  hunks: DiffHunk[];
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses the hunks of a unified diff body (everything from the first `@@`). */
export function parseHunks(body: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let hunk: DiffHunk | null = null;
  let oldLine = 0;
  let newLine = 0;
  for (const line of body.split('\n')) {
    const header = HUNK_RE.exec(line);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[3]);
      hunk = {
        old_start: oldLine,
        old_lines: header[2] === undefined ? 1 : Number(header[2]),
        new_start: newLine,
        new_lines: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      };
      hunks.push(hunk);
      continue;
    }
    if (!hunk || line === '' || line.startsWith('\\')) continue;
    const text = line.slice(1);
    if (line[0] === '+') hunk.lines.push({ kind: 'added', old_line: null, new_line: newLine++, text });
    else if (line[0] === '-') hunk.lines.push({ kind: 'removed', old_line: oldLine++, new_line: null, text });
    else hunk.lines.push({ kind: 'context', old_line: oldLine++, new_line: newLine++, text });
  }
  return hunks;
}

/**
 * The diff from `oldText` to `newText`, labelled `oldName` and `newName` in the unified
 * headers. The texts go to a private temp folder (never the workspace tree), removed after.
 */
export async function diffTexts(
  oldText: string,
  newText: string,
  oldName: string,
  newName: string,
): Promise<TextDiff> {
  const dir = await mkdtemp(path.join(tmpdir(), 'folio-diff-'));
  try {
    await writeFile(path.join(dir, 'old'), oldText);
    await writeFile(path.join(dir, 'new'), newText);
    const r = await runGit(
      dir,
      [
        'diff',
        '--no-index',
        '--text',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
        '-U3',
        '--',
        'old',
        'new',
      ],
      { allowFailure: true },
    );
    // 0: equal, 1: different; anything else is a failure of git itself.
    if (r.code !== 0 && r.code !== 1) throw new Error(`git diff failed: ${r.stderr.split('\n')[0] ?? ''}`);
    const start = r.stdout.indexOf('\n@@');
    if (r.code === 0 || start < 0) return { unified: '', hunks: [] };
    // git names the enclosing "function" after a hunk's range; for prose that is noise.
    const body = r.stdout.slice(start + 1).replace(/^(@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@).*$/gm, '$1');
    return { unified: `--- a/${oldName}\n+++ b/${newName}\n${body}`, hunks: parseHunks(body) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
