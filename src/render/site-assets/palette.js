/*
 * The published site's search palette, loaded on first open by the page's small loader
 * (render/palette.ts). Results appear as the reader types: from the site's search.json,
 * or in the static export from the local index (search-index.js, searched here), which works
 * from file://. Keyboard first: arrows move, Enter opens, Escape closes and gives focus back.
 * Plain browser JavaScript without a build step; the search options below repeat the
 * server's (services/publishing/site/search-sections.ts).
 */
(() => {
  'use strict';
  const DEBOUNCE_MS = 120;
  const PAGES = 10;
  const HITS_PER_PAGE = 3;
  // As the server's search (services/publishing/site/search-sections.ts): weights title >
  // heading > text, the last word a prefix, a typo forgiven only when nothing matched.
  const WEIGHTS = [1, 2, 4];
  const PREFIX_WEIGHT = 0.5;
  const TYPO_WEIGHT = 0.4;
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

  // The export's index (services/publishing/site/export-search.ts): sorted terms with
  // delta-encoded postings, each `(section - previous) << 3 | flags` (1 text, 2 heading,
  // 4 the page's title). Pages are ranked first, sections are picked in the listed ones.
  function loadLocal() {
    const data = window.FolioSearchData;
    const sections = [];
    const pages = data.pages.map(([title, file, entries], n) => {
      const first = sections.length;
      for (const [heading, anchor, text] of entries) sections.push({ page: n, heading, anchor, text });
      return { title, file, first, count: entries.length };
    });
    return { terms: data.terms, postings: data.postings, decoded: new Map(), pages, sections };
  }

  const termsOf = (text) =>
    text
      .split(/[\n\r\p{Z}\p{P}]+/u)
      .filter(Boolean)
      .map((t) => t.toLowerCase());

  function postingsOf(i) {
    let list = local.decoded.get(i);
    if (!list) {
      list = [];
      let section = 0;
      for (const part of local.postings[i].split(' ')) {
        const value = parseInt(part, 36);
        section += Math.floor(value / 8);
        list.push(section, value % 8);
      }
      local.decoded.set(i, list);
    }
    return list;
  }

  // The first term not below `term` in the sorted list.
  function lowerBound(term) {
    let lo = 0;
    let hi = local.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (local.terms[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // Edit distance of a and b when at most `max`, else max + 1.
  function distance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      let best = i;
      for (let j = 1; j <= b.length; j++) {
        next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        best = Math.min(best, next[j]);
      }
      if (best > max) return max + 1;
      row = next;
    }
    return row[b.length];
  }

  // The index terms a query word stands for, with their weight.
  function expand(word, last, typo) {
    const found = [];
    const at = lowerBound(word);
    if (local.terms[at] === word) found.push([at, 1]);
    if (last && word.length > 1) {
      for (let i = at; i < local.terms.length && local.terms[i].startsWith(word); i++) {
        if (local.terms[i] !== word) found.push([i, PREFIX_WEIGHT]);
      }
    }
    if (typo && word.length >= 5) {
      const max = Math.min(2, Math.floor(word.length * 0.2));
      local.terms.forEach((t, i) => {
        const d = distance(word, t, max);
        if (d > 0 && d <= max) found.push([i, TYPO_WEIGHT]);
      });
    }
    return found;
  }

  // Pages holding every word (in their title, headings or text), with per-section scores.
  function rank(words, typo) {
    const total = local.sections.length;
    let pages = null;
    words.forEach((word, w) => {
      const hits = new Map();
      for (const [i, weight] of expand(word, w === words.length - 1, typo)) {
        const list = postingsOf(i);
        const idf = Math.log(1 + total / (list.length / 2));
        for (let k = 0; k < list.length; k += 2) {
          const section = list[k];
          const flags = list[k + 1];
          const page = local.sections[section].page;
          let hit = hits.get(page);
          if (!hit) hits.set(page, (hit = { title: 0, sections: new Map() }));
          if (flags & 4) hit.title = Math.max(hit.title, WEIGHTS[2] * weight * idf);
          const inSection = (flags & 2 ? WEIGHTS[1] : 0) + (flags & 1 ? WEIGHTS[0] : 0);
          if (inSection) {
            const s = hit.sections.get(section) || { score: 0, terms: new Set() };
            s.score = Math.max(s.score, inSection * weight * idf);
            s.terms.add(local.terms[i]);
            hit.sections.set(section, s);
          }
          if (flags & 4 || inSection) (hit.terms || (hit.terms = new Set())).add(local.terms[i]);
          if (flags & 4) (hit.titleTerms || (hit.titleTerms = new Set())).add(local.terms[i]);
        }
      }
      const next = new Map();
      for (const [page, hit] of hits) {
        const before = pages
          ? pages.get(page)
          : { score: 0, sections: new Map(), covered: new Map(), terms: [], titleWords: 0 };
        if (!before) continue;
        let best = hit.title;
        for (const [section, s] of hit.sections) {
          best = Math.max(best, s.score);
          before.sections.set(section, (before.sections.get(section) || 0) + s.score);
          before.covered.set(section, (before.covered.get(section) || 0) + 1);
        }
        before.score += best;
        before.terms.push(...hit.terms);
        if (hit.title) before.titleWords++;
        next.set(page, before);
      }
      pages = next;
    });
    return [...(pages || new Map())].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
  }

  function searchLocally(q) {
    if (!local) local = loadLocal();
    const words = termsOf(q);
    let ranked = rank(words, false);
    if (!ranked.length) ranked = rank(words, true);
    const results = ranked.slice(0, PAGES).map(([n, found]) => {
      const page = local.pages[n];
      const href = config.root + page.file;
      const terms = [...new Set(found.terms)];
      const pageHit = () => ({
        heading: null,
        anchor: null,
        href,
        snippet: snippet(local.sections[page.first]?.text || '', terms),
      });
      // As the server: sections holding the most words first, the page itself where its title matched.
      const scored = [...found.sections.keys()].sort(
        (a, b) =>
          found.covered.get(b) - found.covered.get(a) ||
          found.sections.get(b) - found.sections.get(a) ||
          a - b,
      );
      const hits = [];
      const bestCovered = scored.length ? found.covered.get(scored[0]) : 0;
      if (found.titleWords > 0 && found.titleWords >= bestCovered) hits.push(pageHit());
      for (const id of scored) {
        if (hits.length >= HITS_PER_PAGE) break;
        const section = local.sections[id];
        if (hits.some((h) => h.anchor === section.anchor)) continue;
        hits.push({
          heading: section.heading || null,
          anchor: section.anchor,
          href: section.anchor ? `${href}#${encodeURIComponent(section.anchor)}` : href,
          snippet: snippet(section.text, terms),
        });
      }
      if (hits.length < HITS_PER_PAGE && found.titleWords > 0 && !hits.some((h) => h.anchor === null))
        hits.push(pageHit());
      return { title: page.title, hits: hits.length ? hits : [pageHit()] };
    });
    return { total: ranked.length, results };
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
