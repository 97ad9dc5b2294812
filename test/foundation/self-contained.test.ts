import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Documents the repository does not hold. Built from parts so this file does not name them
 * itself; a comment must state the rule or cite what a person who clones Folio can open.
 */
const OUTSIDE_DOCUMENTS = new RegExp(`\\b(${['SPEC', 'CONTRACT', 'DESIGN'].join('|')})\\.md\\b`);

/** Whether a tracked file's lines name a document outside the repository: `file:line` for each. */
function citationsOutside(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (OUTSIDE_DOCUMENTS.test(line)) found.push(`${file}:${i + 1}`);
    });
  }
  return found;
}

describe('the repository stands alone', () => {
  it('cites no document outside the repository in code, tests, docs or the README', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => /\.(ts|tsx|js|mjs|md|css|html|json|yml)$/.test(f) && fs.existsSync(path.join(root, f)));
    expect(tracked.length).toBeGreaterThan(100);
    expect(citationsOutside(tracked)).toEqual([]);
  });

  it('would name a planted citation', () => {
    const planted = path.join('test-artifacts', 'planted-citation.ts');
    fs.mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
    fs.writeFileSync(path.join(root, planted), `// See ${'SPEC'}.md part 4.\n`);
    try {
      expect(citationsOutside([planted])).toEqual([`${planted}:1`]);
    } finally {
      fs.rmSync(path.join(root, planted));
    }
  });
});
