import type { SearchDocumentsTable } from '../../src/store/schema.js';

/** A portable search index row of page `id` in workspace `ws-a`, published and unrestricted. */
export function documentRowOf(id: string, fields: Partial<SearchDocumentsTable> = {}): SearchDocumentsTable {
  return {
    page_id: id,
    workspace_id: 'ws-a',
    path: `${id}.md`,
    title: `Title of ${id}`,
    description: '',
    tags: '',
    body: '',
    status: 'published',
    restricted: 0,
    ...fields,
  };
}
