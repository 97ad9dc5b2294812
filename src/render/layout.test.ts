import { describe, expect, it } from 'vitest';
import { createRenderer } from './markdown.js';
import {
  NONCE_PLACEHOLDER,
  renderNotFoundPage,
  renderSearchPage,
  renderSitePage,
  type SitePageInput,
} from './layout.js';
import { THEME_NAMES, themeCss } from './themes.js';

const EVIL = '<script>alert("x")</script>';
const NONCE = 'r4nd0m+N0nce/==';

function input(overrides: Partial<SitePageInput> = {}): SitePageInput {
  const rendered = createRenderer().render('Intro.\n\n## Install\n\nText.\n\n## Use\n\n### Details\n', {
    pagePath: 'guides/setup.md',
    resolveWikilink: () => null,
  });
  return {
    siteTitle: `Docs ${EVIL}`,
    siteDescription: 'All about "things" & stuff',
    theme: 'default',
    nonce: NONCE,
    basePath: '/p/docs/',
    searchAction: '/p/docs/search',
    page: {
      title: `Setup ${EVIL}`,
      description: 'How to <set up>',
      html: rendered.html,
      toc: rendered.toc,
      updatedAt: '2025-01-15T10:30:45Z',
    },
    nav: [
      { title: 'Home', href: '/p/docs/' },
      {
        title: `Guides ${EVIL}`,
        href: '/p/docs/guides/',
        children: [
          { title: 'Setup', href: '/p/docs/guides/setup', active: true },
          { title: 'Evil', href: 'javascript:alert(1)' },
        ],
      },
    ],
    breadcrumbs: [{ title: `Guides ${EVIL}`, href: '/p/docs/guides/' }],
    prev: { title: 'Home', href: '/p/docs/' },
    next: { title: `Next ${EVIL}`, href: '/p/docs/guides/next' },
    versions: [
      { slug: 'v2', name: 'v2.0', href: '/p/docs/v/v2/', current: true },
      { slug: 'v1', name: 'v1.0', href: '/p/docs/v/v1/', current: false },
    ],
    canonicalUrl: 'https://docs.example.com/guides/setup',
    ...overrides,
  };
}

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('renderSitePage', () => {
  it('produces a complete HTML5 document with the page furniture', () => {
    const html = renderSitePage(input());
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<link rel="canonical" href="https://docs.example.com/guides/setup">');
    expect(html).toContain('<a class="skip-link" href="#content">');
    expect(html).toContain('<main id="content"');
    expect(html).toContain(
      '<form class="site-search" role="search" aria-label="Site" action="/p/docs/search" method="get">',
    );
    expect(html).toContain('<nav class="breadcrumbs" aria-label="Breadcrumb">');
    expect(html).toContain('<a href="/p/docs/guides/setup" aria-current="page">Setup</a>');
    expect(html).toContain('<li class="toc-l2"><a href="#install">Install</a></li>');
    expect(html).toContain('<li class="toc-l3"><a href="#details">Details</a></li>');
    expect(html).toContain('rel="prev" href="/p/docs/"');
    expect(html).toContain('<time datetime="2025-01-15T10:30:45.000Z">January 15, 2025</time>');
    expect(html).toContain('<a href="/p/docs/v/v2/" aria-current="true">v2.0</a>');
    // A group with its own page: the page is the group's link, the summary only its toggle.
    expect(html).toContain('<li class="nav-group"><a href="/p/docs/guides/">Guides ');
    expect(html).toContain('<details open><summary aria-label="Pages in Guides ');
    expect(html).toContain('<footer class="site-footer">');
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
  });

  it('escapes every interpolated value and neutralises script URLs', () => {
    const html = renderSitePage(input());
    expect(html).not.toContain(EVIL);
    expect(html).toContain(
      '<title>Setup &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; · Docs &lt;script&gt;',
    );
    expect(html).toContain('<h1>Setup &lt;script&gt;');
    expect(html).toContain('content="How to &lt;set up&gt;"');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a href="#">Evil</a>');
  });

  it('puts the nonce on the inline style and scripts and nowhere else', () => {
    const html = renderSitePage(input());
    expect(count(html, NONCE)).toBe(3);
    expect(html).toContain(`<style nonce="${NONCE}">${themeCss('default')}</style>`);
    expect(count(html, `<script nonce="${NONCE}">`)).toBe(2);
    expect(count(html, '<script')).toBe(2);
    expect(count(html, '<style')).toBe(1);
    expect(html).toContain('data-folio-mode-toggle aria-pressed="false" title="Dark mode" hidden>');

    const linked = renderSitePage(input({ cssHref: '/p/docs/_theme.css?v=1' }));
    expect(linked).toContain('<link rel="stylesheet" href="/p/docs/_theme.css?v=1">');
    expect(linked).not.toContain('<style');
    expect(count(linked, NONCE)).toBe(2);
  });

  it('has no light/dark toggle for themes without one, only the site script', () => {
    for (const theme of ['dark', 'minimal'] as const) {
      const html = renderSitePage(input({ theme, cssHref: '/t.css' }));
      expect(count(html, '<script')).toBe(1);
      expect(html).toContain(`<script nonce="${NONCE}">(()=>{const q=`);
      expect(html).not.toContain('mode-toggle');
      expect(html).not.toContain('folio-mode');
    }
  });

  it('renders for every theme and supports a nonce placeholder for ETags', () => {
    for (const theme of THEME_NAMES) expect(renderSitePage(input({ theme }))).toContain('</html>');
    const template = renderSitePage(input({ nonce: NONCE_PLACEHOLDER }));
    expect(template.replaceAll(NONCE_PLACEHOLDER, NONCE)).toBe(renderSitePage(input()));
  });

  it('uses the body h1 as the title instead of adding a second one', () => {
    const rendered = createRenderer().render('# Own title\n\nText', {
      pagePath: 'a.md',
      resolveWikilink: () => null,
    });
    const html = renderSitePage(
      input({ page: { title: 'Own title', html: rendered.html, toc: rendered.toc } }),
    );
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).toContain('<h1 id="own-title">Own title</h1>');
  });

  it('omits optional furniture when absent', () => {
    const html = renderSitePage(
      input({
        nav: [],
        breadcrumbs: [],
        prev: undefined,
        next: undefined,
        versions: undefined,
        searchAction: undefined,
        page: { title: 'Short', html: '<p>x</p>', toc: [] },
      }),
    );
    for (const absent of ['site-nav', 'breadcrumbs', 'pager', 'versions', 'site-search', 'toc', 'nav-jump'])
      expect(html).not.toContain(`class="${absent}`);
  });
});

describe('renderSearchPage', () => {
  it('lists results, keeping <mark> in snippets and escaping everything else', () => {
    const html = renderSearchPage({
      siteTitle: 'Docs',
      theme: 'forest',
      nonce: NONCE,
      basePath: '/p/docs/',
      searchAction: '/p/docs/search',
      query: '"install" <b>',
      total: 1,
      results: [
        {
          title: 'Setup <i>',
          href: '/p/docs/guides/setup',
          path: 'guides/setup.md',
          snippet: 'How to <mark>install</mark> &amp; run <img src=x onerror=alert(1)>',
        },
      ],
    });
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('value="&quot;install&quot; &lt;b&gt;"');
    expect(html).toContain('1 result for “&quot;install&quot; &lt;b&gt;”');
    expect(html).toContain('How to <mark>install</mark> &amp; run &lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<a href="/p/docs/guides/setup">Setup &lt;i&gt;</a>');
  });
});

describe('renderNotFoundPage', () => {
  it('shows a sign-in link for members-only sites', () => {
    const html = renderNotFoundPage({
      siteTitle: 'Docs',
      theme: 'corporate',
      nonce: NONCE,
      signInHref: '/login?next=%2Fp%2Fdocs',
    });
    expect(html).toContain('<h1>Page not found</h1>');
    expect(html).toContain('<a href="/login?next=%2Fp%2Fdocs">Sign in</a>');
    expect(html).toContain('noindex');
    expect(renderNotFoundPage({ siteTitle: 'Docs', theme: 'minimal' })).not.toContain('Sign in');
  });
});
