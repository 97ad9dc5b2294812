/*
 * The published site's search palette, loaded on first open by the page's small loader
 * (render/palette.ts). Results appear as the reader types: from the site's search.json,
 * or in the static export from the local index (search-index.js, MiniSearch), which works
 * from file://. Keyboard first: arrows move, Enter opens, Escape closes and gives focus back.
 * Plain browser JavaScript without a build step; the search options below repeat the
 * server's (services/publishing/site/search-sections.ts).
 */
(() => {
  'use strict';
  const DEBOUNCE_MS = 120;
  const PAGES = 10;
  const HITS_PER_PAGE = 3;
  const SEARCH_OPTIONS = {
    boost: { title: 4, heading: 2, text: 1 },
    combineWith: 'AND',
    prefix: (term, i, terms) => i === terms.length - 1 && term.length > 1,
    fuzzy: false,
  };
  // Only when nothing matched exactly: fuzzy search costs many times more.
  const TYPO_OPTIONS = { fuzzy: (term) => (term.length >= 5 ? 0.2 : false), maxFuzzy: 2 };
  let ui = null;
  let config = {};
  let opener = null;
  let timer = 0;
  let controller = null;
  let active = -1;
  let local = null;

  const el = (tag, attrs, children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'text') node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const child of children || []) node.append(child);
    return node;
  };

  function build() {
    const input = el('input', {
      id: 'folio-palette-q',
      type: 'search',
      role: 'combobox',
      'aria-expanded': 'false',
      'aria-controls': 'folio-palette-list',
      'aria-autocomplete': 'list',
      autocomplete: 'off',
      spellcheck: 'false',
      enterkeyhint: 'go',
      placeholder: 'Search the documentation',
    });
    const label = el('label', { for: 'folio-palette-q', class: 'visually-hidden', text: 'Search' });
    const close = el('button', { type: 'button', class: 'folio-palette-close', text: 'Close' });
    const status = el('p', { role: 'status', class: 'folio-palette-status' });
    const list = el('div', { id: 'folio-palette-list', role: 'listbox', 'aria-label': 'Results' });
    const hint = el('p', { class: 'folio-palette-hint', 'aria-hidden': 'true' });
    hint.innerHTML = '<kbd>↑</kbd><kbd>↓</kbd> to move, <kbd>Enter</kbd> to open, <kbd>Esc</kbd> to close';
    const dialog = el(
      'div',
      { class: 'folio-palette', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Search' },
      [el('div', { class: 'folio-palette-bar' }, [label, input, close]), status, list, hint],
    );
    const backdrop = el('div', { class: 'folio-palette-backdrop', hidden: '' }, [dialog]);
    document.body.append(backdrop);
    input.addEventListener('input', () => schedule());
    input.addEventListener('keydown', onKey);
    close.addEventListener('click', () => hide(true));
    backdrop.addEventListener('mousedown', (e) => {
      if (e.target === backdrop) hide(true);
    });
    dialog.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        hide(true);
      } else if (e.key === 'Tab') {
        // Focus stays in the dialog: the field and the close button.
        e.preventDefault();
        (document.activeElement === input ? close : input).focus();
      }
    });
    ui = { backdrop, input, status, list };
  }

  function options() {
    return [...ui.list.querySelectorAll('[role="option"]')];
  }

  function setActive(i) {
    const all = options();
    all.forEach((o, n) => o.setAttribute('aria-selected', String(n === i)));
    active = all.length ? i : -1;
    const current = all[active];
    if (current) {
      ui.input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else ui.input.removeAttribute('aria-activedescendant');
  }

  function onKey(e) {
    const all = options();
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!all.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(active < 0 ? (step > 0 ? 0 : all.length - 1) : (active + step + all.length) % all.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const target = all[active < 0 ? 0 : active];
      if (target) go(target.getAttribute('href'));
    }
  }

  function go(href) {
    hide(false);
    location.href = href;
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  }

  async function run() {
    const q = ui.input.value.trim();
    if (controller) controller.abort();
    if (!q) return show(q, null);
    try {
      if (config.endpoint) {
        controller = new AbortController();
        const params = new URLSearchParams({ q });
        if (config.version) params.set('version', config.version);
        const res = await fetch(`${config.endpoint}?${params}`, {
          signal: controller.signal,
          headers: { accept: 'application/json' },
          credentials: 'same-origin',
        });
        if (!res.ok) throw new Error(String(res.status));
        const answer = await res.json();
        if (ui.input.value.trim() === q) show(q, answer);
      } else show(q, searchLocally(q));
    } catch (err) {
      if (err && err.name === 'AbortError') return;
      ui.status.textContent = 'Search is not available right now.';
    }
  }

  function show(q, answer) {
    ui.list.replaceChildren();
    active = -1;
    ui.input.removeAttribute('aria-activedescendant');
    if (!answer) {
      ui.status.textContent = 'Type to search.';
      ui.input.setAttribute('aria-expanded', 'false');
      return;
    }
    let n = 0;
    for (const page of answer.results) {
      const group = el('div', { role: 'group', 'aria-label': page.title, class: 'folio-palette-group' }, [
        el('div', { class: 'folio-palette-page', 'aria-hidden': 'true', text: page.title }),
      ]);
      for (const hit of page.hits) {
        const option = el('a', {
          role: 'option',
          id: `folio-palette-o${n++}`,
          href: hit.href,
          'aria-selected': 'false',
        });
        option.append(el('span', { class: 'folio-palette-heading', text: hit.heading || page.title }));
        if (hit.snippet) {
          const text = el('span', { class: 'folio-palette-snippet' });
          text.innerHTML = hit.snippet;
          option.append(text);
        }
        option.addEventListener('mousemove', () => setActive(options().indexOf(option)));
        option.addEventListener('click', (e) => {
          if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          go(hit.href);
        });
        group.append(option);
      }
      ui.list.append(group);
    }
    const total = answer.total;
    ui.status.textContent = total
      ? `${total} ${total === 1 ? 'page' : 'pages'} found for “${q}”`
      : `No results for “${q}”`;
    ui.input.setAttribute('aria-expanded', String(n > 0));
  }

  // The export's index: MiniSearch over sections, grouped by page as search.json does.
  function searchLocally(q) {
    const data = window.FolioSearchData;
    if (!local) {
      local = window.MiniSearch.loadJS(data.index, {
        fields: data.fields,
        idField: 'id',
        searchOptions: SEARCH_OPTIONS,
      });
    }
    const pages = new Map();
    let found = local.search(q);
    if (!found.length) found = local.search(q, TYPO_OPTIONS);
    for (const result of found) {
      const doc = data.docs[result.id];
      if (!doc) continue;
      const [pageIndex, heading, anchor, text] = doc;
      const [title, file] = data.pages[pageIndex];
      let group = pages.get(pageIndex);
      if (!group) {
        group = { title, href: config.root + file, hits: [], listed: pages.size < PAGES };
        pages.set(pageIndex, group);
      }
      if (!group.listed || group.hits.length >= HITS_PER_PAGE) continue;
      const titleOnly = Object.values(result.match).every((f) => f.every((x) => x === 'title'));
      const hitAnchor = titleOnly ? null : anchor;
      if (group.hits.some((h) => h.anchor === hitAnchor)) continue;
      group.hits.push({
        heading: titleOnly ? null : heading || null,
        anchor: hitAnchor,
        href: hitAnchor ? `${group.href}#${encodeURIComponent(hitAnchor)}` : group.href,
        snippet: snippet(text, result.terms),
      });
    }
    const results = [...pages.values()].filter((p) => p.listed);
    return { total: pages.size, results };
  }

  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  }

  function snippet(text, terms) {
    if (!text) return '';
    const words = terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = words.length
      ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})[\\p{L}\\p{N}]*`, 'giu')
      : null;
    const first = pattern ? text.search(pattern) : -1;
    const start = first > 50 ? text.indexOf(' ', first - 50) + 1 : 0;
    const end = Math.min(text.length, start + 160);
    const part = text.slice(start, end);
    let html = '';
    let at = 0;
    for (const m of pattern ? part.matchAll(pattern) : []) {
      html += `${escapeHtml(part.slice(at, m.index))}<mark>${escapeHtml(m[0])}</mark>`;
      at = m.index + m[0].length;
    }
    html += escapeHtml(part.slice(at));
    return `${start > 0 ? '…' : ''}${html}${end < text.length ? '…' : ''}`;
  }

  function hide(restore) {
    if (!ui || ui.backdrop.hidden) return;
    ui.backdrop.hidden = true;
    document.documentElement.classList.remove('folio-palette-open');
    if (restore && opener && document.contains(opener)) opener.focus();
  }

  window.FolioPalette = {
    /** Opens the palette; `from` gets focus back on Escape, `text` starts a new query. */
    open(options) {
      config = options.config;
      if (!ui) build();
      opener = options.from || null;
      ui.backdrop.hidden = false;
      document.documentElement.classList.add('folio-palette-open');
      if (typeof options.text === 'string' && options.text) ui.input.value = options.text;
      ui.input.focus();
      ui.input.select();
      if (ui.input.value.trim()) run();
      else show('', null);
    },
    close: () => hide(true),
  };
})();
