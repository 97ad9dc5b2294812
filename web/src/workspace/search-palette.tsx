import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState, type KeyboardEvent } from 'react';
import type { SearchHit } from '../../../src/contract/search';
import { api } from '../api/client';
import { Dialog } from '../ui/dialog';
import { Snippet } from './snippet';
import { pageKeys } from '../api/query-keys';

/** The palette shows a hit's title, path and snippet. */
type SearchResult = SearchHit;

interface SearchPaletteProps {
  workspaceId: string;
  onOpen: (path: string) => void;
  onClose: () => void;
}

/** Ctrl/Cmd+K: the workspace search as a palette; arrows pick a result, Enter opens it. */
export function SearchPalette({ workspaceId, onOpen, onClose }: SearchPaletteProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const deferred = useDeferredValue(query.trim());
  const listId = useId();
  const results = useQuery({
    queryKey: pageKeys.search(workspaceId, deferred),
    queryFn: () =>
      api<{ results: SearchResult[] }>(
        'GET',
        `/api/v1/workspaces/${encodeURIComponent(workspaceId)}/search?q=${encodeURIComponent(deferred)}&limit=20`,
      ).then((r) => r.results),
    enabled: deferred.length > 0,
    placeholderData: (previous) => previous,
  });
  const items = deferred ? (results.data ?? []) : [];
  const current = Math.min(active, Math.max(0, items.length - 1));

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive(Math.max(0, Math.min(items.length - 1, current + step)));
    } else if (event.key === 'Enter' && items[current]) {
      event.preventDefault();
      onOpen(items[current].path);
    }
  };

  return (
    <Dialog title="Search pages" onClose={onClose}>
      <div className="field">
        <label htmlFor={`${listId}-input`} className="visually-hidden">
          Search
        </label>
        <input
          id={`${listId}-input`}
          type="search"
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-activedescendant={items[current] ? `${listId}-${current}` : undefined}
          autoComplete="off"
          placeholder="Search this workspace"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          autoFocus
        />
      </div>
      <ul id={listId} role="listbox" aria-label="Results" className="search-results">
        {items.map((item, i) => (
          <li
            key={item.page_id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === current}
            className={i === current ? 'is-active' : undefined}
            onClick={() => onOpen(item.path)}
          >
            <span className="result-title">{item.title}</span>
            <span className="result-path">{item.path}</span>
            <Snippet html={item.snippet} />
          </li>
        ))}
      </ul>
      {deferred && results.isSuccess && items.length === 0 && <p className="hint">No pages match.</p>}
    </Dialog>
  );
}
