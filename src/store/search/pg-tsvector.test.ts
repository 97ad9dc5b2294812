import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { documentRowOf } from '../../../test/helpers/seed-rows.js';
import { MARK_START } from '../../search/query-text.js';
import { upsertDocumentRows } from './documents.js';
import { initPgTsvector, rankTsvectorMatches } from './pg-tsvector.js';

describeEachDatabase(
  'PostgreSQL tsvector statements on $name',
  (target) => {
    const store = useMigratedStore(target);
    const db = () => store().db;
    const search = (
      terms: string[],
      over: { limit?: number; totalCap?: number; publishedOnly?: boolean } = {},
    ) => rankTsvectorMatches(db(), { terms, workspaceId: 'ws-a', limit: 10, totalCap: 1000, ...over });

    it('adds its column and index idempotently; the vector follows every row written', async () => {
      await initPgTsvector(db());
      await initPgTsvector(db());
      await upsertDocumentRows(db(), [
        documentRowOf('p-body', { path: 'a/body.md', body: 'we deploy kubernetes here' }),
        documentRowOf('p-title', {
          path: 'b/title.md',
          title: 'Kubernetes guide',
          description: 'kubernetes intro',
        }),
        documentRowOf('p-other', { workspace_id: 'ws-b', title: 'Kubernetes elsewhere' }),
        documentRowOf('p-hidden', { title: 'Kubernetes secrets', restricted: 1 }),
        documentRowOf('p-draft', { path: 'c/draft.md', body: 'kubernetes draft', status: 'draft' }),
      ]);
      const rows = await search(['kubernetes']);
      expect(rows[0]).toMatchObject({ page_id: 'p-title', path: 'b/title.md', title: 'Kubernetes guide' });
      expect(rows.map((r) => r.page_id).sort()).toEqual(['p-body', 'p-draft', 'p-title']);
      expect(Number(rows[0]!.score)).toBeGreaterThan(Number(rows[1]!.score));
      expect(rows.map((r) => Number(r.total))).toEqual([3, 3, 3]);
    });

    it('limits, caps the total, keeps to published pages on request and highlights', async () => {
      const [best, ...more] = await search(['kubernetes'], { limit: 1, totalCap: 2 });
      expect(more).toEqual([]);
      expect(best).toMatchObject({ page_id: 'p-title', total: expect.anything() });
      expect(Number(best!.total)).toBe(2);
      expect(best!.description_snippet).toContain(`${MARK_START}kubernetes`);
      const published = await search(['kubernetes'], { publishedOnly: true });
      expect(published.map((r) => r.page_id).sort()).toEqual(['p-body', 'p-title']);
      const [body] = await search(['deploy']);
      expect(body).toMatchObject({ page_id: 'p-body' });
      expect(body!.body_snippet).toContain(`${MARK_START}deploy`);
      // The last term is a prefix: "kube" finds "kubernetes".
      expect((await search(['guide', 'kube'])).map((r) => r.page_id)).toEqual(['p-title']);
    });
  },
  { only: 'postgres' },
);
