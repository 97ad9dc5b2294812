import { describe, expect, it } from 'vitest';
import {
  analysePage,
  analyseWorkspace,
  countWords,
  fleschReadingEase,
  markdownToPlainText,
} from './quality.js';

const prose =
  'Folio keeps your documentation in plain Markdown files. You write a page, save it, and readers see it at once. ' +
  'Each page has a title and a short description. Links between pages are checked for you. ' +
  'When a page moves, the links that point to it move too. Search finds words in every page you publish.';

describe('fleschReadingEase', () => {
  it('scores plain prose higher than dense jargon', () => {
    const simple = fleschReadingEase('The cat sat on the mat. It was a good day. We had fun.');
    const dense = fleschReadingEase(
      'Institutional interoperability necessitates comprehensive organizational standardization, notwithstanding considerable implementation complexity.',
    );
    expect(simple).toBeGreaterThan(80);
    expect(dense).toBeLessThan(20);
    expect(fleschReadingEase('')).toBe(0);
  });

  it('ignores code, URLs and Markdown syntax', () => {
    const text = 'The cat sat on the mat.';
    const noisy = `## The cat\n\n${text}\n\n\`\`\`ts\nconst internationalization = organizationalInteroperability();\n\`\`\`\n\nSee https://example.com/extraordinarily/complicated/url \`inline_code_identifier\`.`;
    expect(markdownToPlainText(noisy)).not.toMatch(/internationalization|example\.com|inline_code/);
    expect(Math.abs(fleschReadingEase(noisy) - fleschReadingEase(`The cat. ${text} See.`))).toBeLessThan(1);
    expect(countWords(markdownToPlainText('- one\n- two three\n\n[link text](a.md)'))).toBe(5);
  });
});

describe('analysePage', () => {
  const existingPaths = new Set(['index.md', 'guides/setup.md', 'guides/intro.md', 'api/index.md']);
  const anchorsByPath = new Map([
    ['guides/setup.md', new Set(['install', 'configure'])],
    ['guides/intro.md', new Set(['overview', 'local'])],
  ]);
  const base = {
    path: 'guides/intro.md',
    title: 'Intro',
    description: 'The intro',
    existingPaths,
    anchorsByPath,
  };

  it('finds dead links, missing anchors and images without alt text', () => {
    const body = [
      `# Overview\n\n${prose}`,
      '',
      'Good: [[guides/setup]] [[guides/setup.md#install]] [setup](setup.md#configure) [api](../api) [[api]] [top](#local)',
      'Dead: [[guides/missing]] [gone](../nowhere.md)',
      'Anchors: [[guides/setup#Uninstall]] [x](setup.md#nope) [[#not-here]]',
      'Images: ![](uploads/a.png) ![Diagram](uploads/b.png) <img src="c.png"> <img src="d.png" alt="">',
      '`[[in/code]]`',
    ].join('\n');
    const report = analysePage({ ...base, body });
    const summary = report.issues.map((i) => `${i.type}:${i.target ?? ''}@${i.line ?? ''}`);
    expect(summary.sort()).toEqual(
      [
        'dead_link:guides/missing@6',
        'dead_link:../nowhere.md@6',
        'missing_anchor:guides/setup@7',
        'missing_anchor:setup.md#nope@7',
        'missing_anchor:@7',
        'missing_alt:uploads/a.png@8',
        'missing_alt:c.png@8',
      ].sort(),
    );
    expect(report.linksTo.sort()).toEqual(['api/index.md', 'guides/setup.md']);
    expect(report.score).toBe(100 - 2 * 15 - 3 * 8 - 2 * 5);
  });

  it('reports missing title and description and short or empty pages', () => {
    const empty = analysePage({ ...base, title: '', description: null, body: '```\ncode only\n```' });
    expect(empty.issues.map((i) => i.type).sort()).toEqual([
      'empty_page',
      'missing_description',
      'missing_title',
    ]);
    const short = analysePage({ ...base, body: 'Just a few words here.' });
    expect(short.issues.map((i) => i.type)).toEqual(['short_page']);
    expect(short.wordCount).toBe(5);
    expect(analysePage({ ...base, body: prose }).issues).toEqual([]);
  });
});

describe('analyseWorkspace', () => {
  const page = (path: string, body: string) => ({ path, title: path, description: `About ${path}`, body });

  it('finds orphans but not index pages', () => {
    const report = analyseWorkspace([
      page('index.md', `${prose}\n\n[[guides/setup]]`),
      page('guides/index.md', prose),
      page('guides/setup.md', `${prose}\n\n[[index]]`),
      page('guides/lonely.md', `${prose}\n\n[[guides/setup]]`),
    ]);
    const orphans = report.issues.filter((i) => i.type === 'orphan_page').map((i) => i.path);
    expect(orphans).toEqual(['guides/lonely.md']);
    expect(report.issueCounts.orphan_page).toBe(1);
    expect(report.pageCount).toBe(4);
  });

  it('scores a clean workspace higher than a broken one', () => {
    const clean = analyseWorkspace([
      page('index.md', `# Home\n\n${prose}\n\nStart with [[guides/setup#install]].`),
      page('guides/setup.md', `# Setup\n\n## Install\n\n${prose}\n\nBack to [home](../index.md).`),
    ]);
    const broken = analyseWorkspace([
      page('index.md', `# Home\n\n${prose}\n\nStart with [[guides/setup#uninstall]] and [[missing]].`),
      page('guides/setup.md', `# Setup\n\n![](shot.png) Too short.`),
      { path: 'guides/orphan.md', title: '', description: '', body: '' },
    ]);
    expect(clean.issues).toEqual([]);
    expect(clean.score).toBeGreaterThan(90);
    expect(broken.score).toBeLessThan(clean.score - 20);
    expect(broken.issueCounts).toMatchObject({
      dead_link: 1,
      missing_anchor: 1,
      missing_alt: 1,
      orphan_page: 1,
    });
    expect(analyseWorkspace([]).score).toBe(100);
  });

  it('accepts exact heading ids from renders', () => {
    const report = analyseWorkspace([
      { ...page('a.md', `${prose} [[b#custom-id]]`) },
      { ...page('b.md', `${prose} [[a]]`), headingIds: ['custom-id'] },
    ]);
    expect(report.issues).toEqual([]);
  });
});
