import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createSearchIndex,
  SEARCH_TOTAL_CAP,
  type SearchDocument,
  type SearchIndex,
} from '../../src/search/index.js';
import { openStore, type Store } from '../../src/store/database.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { tempDir } from '../helpers/server.js';

/**
 * The index as a repository, against a real store on each database: the HTTP suite
 * (search-http.test.ts) covers the route and permissions once pages can be created.
 */
describeEachDatabase('search index on $name', (target) => {
  let store: Store;
  let index: SearchIndex;
  let cleanup: () => Promise<void>;

  const doc = (over: Partial<SearchDocument> & Pick<SearchDocument, 'page_id'>): SearchDocument => ({
    workspace_id: 'ws-a',
    path: `${over.page_id}.md`,
    title: 'Untitled',
    description: '',
    tags: [],
    body: '',
    status: 'published',
    restricted: false,
    ...over,
  });
  const put = (...docs: SearchDocument[]) =>
    store.db.transaction().execute(async (trx) => {
      for (const d of docs) await index.upsert(trx, d);
    });
  const search = (q: string, over: { workspaceId?: string; limit?: number; publishedOnly?: boolean } = {}) =>
    index.query({ workspaceId: 'ws-a', q, limit: 20, ...over });

  beforeAll(async () => {
    const prepared = await target.prepare();
    cleanup = prepared.cleanup;
    store = await openStore({
      databaseUrl: prepared.env.DATABASE_URL,
      sqlitePath: path.join(tempDir(), 'folio.db'),
      ...(prepared.pgSchema ? { pgSchema: prepared.pgSchema } : {}),
    });
    await store.migrate();
    index = createSearchIndex(store);
    await index.init();
    await index.init(); // idempotent
    await put(
      doc({
        page_id: 'p-body',
        path: 'guides/body.md',
        title: 'Guide',
        body: 'Mention of kubernetes deep in the body.',
      }),
      doc({
        page_id: 'p-title',
        path: 'guides/title.md',
        title: 'Kubernetes deployment',
        body: 'How we ship.',
      }),
      doc({
        page_id: 'p-html',
        title: 'Escaping',
        body: 'Never run `<script>alert("x")</script>` from a page about sanitizer & friends.',
      }),
      doc({ page_id: 'p-other-ws', workspace_id: 'ws-b', title: 'Kubernetes elsewhere', body: 'kubernetes' }),
      doc({ page_id: 'p-restricted', title: 'Kubernetes secrets', restricted: true }),
      doc({ page_id: 'p-draft', title: 'Kubernetes draft', status: 'draft' }),
      doc({ page_id: 'p-tags', title: 'Runbook', tags: ['kubernetes', 'ops'], description: 'Paging rota.' }),
    );
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  it('ranks a title match above a tag match above a body match', async () => {
    const { results } = await search('kubernetes');
    const order = results.map((r) => r.page_id);
    expect(order.indexOf('p-title')).toBeLessThan(order.indexOf('p-tags'));
    expect(order.indexOf('p-tags')).toBeLessThan(order.indexOf('p-body'));
    for (let i = 1; i < results.length; i++)
      expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
    expect(results.every((r) => r.score > 0)).toBe(true);
  });

  it('confines results to one workspace and leaves out restricted pages', async () => {
    const { results, total } = await search('kubernetes');
    const ids = results.map((r) => r.page_id);
    expect(ids).not.toContain('p-other-ws');
    expect(ids).not.toContain('p-restricted');
    expect(ids).toContain('p-draft');
    expect(total).toBe(ids.length);
    const other = await search('kubernetes', { workspaceId: 'ws-b' });
    expect(other.results.map((r) => r.page_id)).toEqual(['p-other-ws']);
  });

  it('honours publishedOnly', async () => {
    const { results } = await search('kubernetes', { publishedOnly: true });
    expect(results.map((r) => r.page_id)).not.toContain('p-draft');
    expect(results.length).toBeGreaterThan(0);
  });

  it('counts every match in total while returning at most limit results', async () => {
    const all = await search('kubernetes');
    const one = await search('kubernetes', { limit: 1 });
    expect(one.results).toHaveLength(1);
    expect(one.total).toBe(all.total);
    expect(all.total).toBeGreaterThan(1);
  });

  it('marks matches and escapes the HTML around them', async () => {
    const { results } = await search('script');
    const hit = results.find((r) => r.page_id === 'p-html');
    expect(hit?.snippet).toContain('<mark>');
    expect(hit?.snippet).toContain('&lt;');
    expect(hit?.snippet).not.toMatch(/<script|<\/script/i);
    expect(hit?.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(hit?.snippet).toContain('&amp;');
  });

  it('highlights a match deep inside a long page', async () => {
    const filler = 'Lorem ipsum dolor sit amet. '.repeat(1000);
    await put(
      doc({ page_id: 'p-long', title: 'Long read', body: `${filler} The hidden narwhal waits. ${filler}` }),
    );
    const { results } = await search('narwhal');
    expect(results.map((r) => r.page_id)).toEqual(['p-long']);
    expect(results[0]?.snippet).toContain('<mark>narwhal</mark>');
    expect(results[0]!.snippet.length).toBeLessThan(400);
    await store.db.transaction().execute((trx) => index.remove(trx, 'p-long'));
  });

  it('treats the last term as a prefix and stems the others', async () => {
    const { results } = await search('kubern');
    expect(results.map((r) => r.page_id)).toContain('p-title');
    const stemmed = await search('deployments kubernetes');
    expect(stemmed.results.map((r) => r.page_id)).toEqual(['p-title']);
  });

  it('takes query syntax characters as plain separators, never as errors', async () => {
    for (const q of [
      '"',
      '*',
      'NEAR(',
      '-',
      ':',
      'kube"rnetes',
      '"kubernetes',
      'kubernetes*',
      'NEAR(kubernetes',
      '-kubernetes',
      'title:kubernetes',
      "o'brien",
      '(a | b) & !c',
      'AND OR NOT',
      '^kubernetes',
      '\\',
      '%_',
    ]) {
      const res = await search(q);
      expect(res.total, q).toBe(res.results.length);
    }
    expect((await search('kubernetes:')).total).toBeGreaterThan(0);
    expect(await search('"*:-')).toEqual({ total: 0, results: [] });
  });

  it('replaces a page on upsert and forgets it on remove', async () => {
    await put(doc({ page_id: 'p-change', title: 'Zeppelin notes', body: 'airship' }));
    expect((await search('zeppelin')).results.map((r) => r.page_id)).toEqual(['p-change']);
    await put(doc({ page_id: 'p-change', title: 'Balloon notes', body: 'airship' }));
    expect((await search('zeppelin')).total).toBe(0);
    expect((await search('balloon')).results.map((r) => r.page_id)).toEqual(['p-change']);
    await store.db.transaction().execute((trx) => index.remove(trx, 'p-change'));
    expect((await search('airship')).total).toBe(0);
  });

  it('writes and removes documents in batches larger than one statement holds', async () => {
    const ids = Array.from({ length: 1201 }, (_, i) => `p-batch-${i}`);
    const batch = (title: string) =>
      ids.map((page_id, i) => doc({ page_id, workspace_id: 'ws-batch', title: `${title} ${i}` }));
    const hits = async (q: string) => (await search(q, { workspaceId: 'ws-batch', limit: 5 })).total;
    // Half the pages exist already, so one batch both replaces and adds.
    await store.db.transaction().execute((trx) => index.upsertMany(trx, batch('Walrus').slice(0, 600)));
    await store.db
      .transaction()
      .execute((trx) =>
        index.upsertMany(trx, [
          ...batch('Pelican'),
          doc({ page_id: 'p-batch-0', workspace_id: 'ws-batch', title: 'Heron' }),
        ]),
      );
    expect(await hits('walrus')).toBe(0);
    expect(await hits('pelican')).toBe(Math.min(1200, SEARCH_TOTAL_CAP));
    expect(await hits('pelican 1199')).toBe(1); // the last page of the last batch
    expect(await hits('heron')).toBe(1); // a page given twice: the last one wins
    await store.db.transaction().execute((trx) => index.removeMany(trx, ids.slice(0, 1000)));
    expect(await hits('pelican')).toBe(201);
    await store.db.transaction().execute((trx) => index.removeMany(trx, ids));
    expect(await hits('pelican')).toBe(0);
    expect((await search('kubernetes')).total).toBeGreaterThan(0);
  });

  it('counts matches up to SEARCH_TOTAL_CAP and still finds the best ones beyond it', async () => {
    const page = (i: number) => String(i).padStart(5, '0');
    const plain = Array.from({ length: SEARCH_TOTAL_CAP + 50 }, (_, i) =>
      doc({
        page_id: `p-many-${page(i)}`,
        workspace_id: 'ws-many',
        path: `a/${page(i)}.md`,
        title: `Note ${i}`,
        // Every tenth page holds a rarer word: more matches than a page of results, fewer than
        // the cap. Bodies keep one length, so the pages tie for "albatross" and go by path.
        body: `An albatross and a ${i % 10 === 0 ? 'petrel' : 'gannet'}.`,
      }),
    );
    // Better matches written last with the last paths, so neither order brings them first.
    const best = doc({
      page_id: 'p-many-best',
      workspace_id: 'ws-many',
      path: 'z/best.md',
      title: 'Albatross',
      body: 'The albatross, the albatross.',
    });
    const second = doc({
      page_id: 'p-many-second',
      workspace_id: 'ws-many',
      path: 'z/second.md',
      tags: ['albatross'],
      body: 'An albatross.',
    });
    await store.db.transaction().execute((trx) => index.upsertMany(trx, [...plain, best, second]));

    const many = await search('albatross', { workspaceId: 'ws-many', limit: 5 });
    expect(many.total).toBe(SEARCH_TOTAL_CAP);
    expect(many.results.map((r) => r.page_id)).toEqual([
      'p-many-best',
      'p-many-second',
      'p-many-00000',
      'p-many-00001',
      'p-many-00002',
    ]);
    expect(many.results[0]?.snippet).toContain('<mark>albatross</mark>');
    expect((await search('albatross', { workspaceId: 'ws-many', limit: 100 })).results).toHaveLength(100);

    const fewer = await search('petrel', { workspaceId: 'ws-many', limit: 5 });
    expect(fewer.total).toBe(Math.ceil((SEARCH_TOTAL_CAP + 50) / 10));
    expect(fewer.results.map((r) => r.path)).toEqual([
      'a/00000.md',
      'a/00010.md',
      'a/00020.md',
      'a/00030.md',
      'a/00040.md',
    ]);

    await store.db.transaction().execute((trx) => index.removeWorkspace(trx, 'ws-many'));
  });

  it('rolls back with the caller transaction', async () => {
    await expect(
      store.db.transaction().execute(async (trx) => {
        await index.upsert(trx, doc({ page_id: 'p-rollback', title: 'Quokka' }));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect((await search('quokka')).total).toBe(0);
  });

  it('drops a whole workspace', async () => {
    await put(doc({ page_id: 'p-gone-1', workspace_id: 'ws-c', title: 'Narwhal' }));
    await put(doc({ page_id: 'p-gone-2', workspace_id: 'ws-c', title: 'Narwhal two' }));
    await store.db.transaction().execute((trx) => index.removeWorkspace(trx, 'ws-c'));
    expect((await search('narwhal', { workspaceId: 'ws-c' })).total).toBe(0);
    expect((await search('kubernetes')).total).toBeGreaterThan(0);
  });

  it('rebuilds its dialect structures from search_documents when they are lost', async () => {
    const before = await search('kubernetes');
    if (target.name === 'sqlite') await sql`drop table search_fts`.execute(store.db);
    else await sql`alter table search_documents drop column search_vector`.execute(store.db);
    await createSearchIndex(store).init();
    expect(await search('kubernetes')).toEqual(before);
    await put(doc({ page_id: 'p-after', title: 'Kubernetes after rebuild' }));
    expect((await search('rebuild')).results.map((r) => r.page_id)).toEqual(['p-after']);
  });
});
