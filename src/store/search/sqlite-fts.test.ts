import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/helpers/databases.js';
import { useMigratedStore } from '../../../test/helpers/migrated-store.js';
import { MARK_START } from '../../search/query-text.js';
import { documentRowOf } from '../../../test/helpers/seed-rows.js';
import { findDocumentRow } from './documents.js';
import {
  BODY_HEAD,
  countFtsMatches,
  deleteFtsDocuments,
  deleteWorkspaceFtsDocuments,
  ftsRestSnippets,
  ftsSnippets,
  initSqliteFts,
  rankFtsMatches,
  splitBody,
  upsertFtsDocuments,
} from './sqlite-fts.js';

describe('splitBody', () => {
  it('keeps a short body whole', () => {
    expect(splitBody('short body')).toEqual(['short body', '']);
  });

  it('splits a long body at whitespace, losing nothing and cutting no word', () => {
    const body = 'alpha beta gamma '.repeat(400);
    const [head, rest] = splitBody(body);
    expect(head + rest).toBe(body);
    expect(head.length).toBeLessThanOrEqual(BODY_HEAD);
    expect(head.length).toBeGreaterThan(BODY_HEAD - 20);
    expect(rest).toMatch(/^\s/);
  });

  it('cuts at the limit when there is no whitespace to cut at', () => {
    const [head, rest] = splitBody('x'.repeat(BODY_HEAD + 5));
    expect([head.length, rest.length]).toEqual([BODY_HEAD, 5]);
  });
});

describeEachDatabase(
  'SQLite FTS5 statements on $name',
  (target) => {
    const store = useMigratedStore(target);
    const db = () => store().db;
    const inWorkspace = (match: string, workspaceId = 'ws-a') => ({ match, workspaceId });
    const ids = (rows: Array<{ page_id: string }>) => rows.map((r) => r.page_id);

    it('creates its structures idempotently and ranks a title match above a body match', async () => {
      await initSqliteFts(db());
      await initSqliteFts(db());
      await upsertFtsDocuments(db(), [
        documentRowOf('p-body', { path: 'a/body.md', body: 'we deploy kubernetes here' }),
        documentRowOf('p-title', { path: 'b/title.md', title: 'Kubernetes guide' }),
        documentRowOf('p-other', { workspace_id: 'ws-b', title: 'Kubernetes elsewhere' }),
        documentRowOf('p-hidden', { title: 'Kubernetes secrets', restricted: 1 }),
        documentRowOf('p-draft', { path: 'c/draft.md', body: 'kubernetes draft', status: 'draft' }),
      ]);
      const ranked = await rankFtsMatches(db(), inWorkspace('kubernetes'), 10);
      expect(ids(ranked)[0]).toBe('p-title');
      expect(ids(ranked).sort()).toEqual(['p-body', 'p-draft', 'p-title']);
      expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score);
      expect(
        ids(await rankFtsMatches(db(), { ...inWorkspace('kubernetes'), publishedOnly: true }, 10)),
      ).toEqual(['p-title', 'p-body']);
      expect(ids(await rankFtsMatches(db(), inWorkspace('kubernetes'), 1))).toEqual(['p-title']);
      expect(await countFtsMatches(db(), inWorkspace('kubernetes'), 1000)).toBe(3);
      expect(await countFtsMatches(db(), inWorkspace('kubernetes'), 2)).toBe(2);
    });

    it('replaces a page’s text in place on a second upsert, keeping its FTS row', async () => {
      const [before] = await rankFtsMatches(db(), inWorkspace('deploy'), 10);
      await upsertFtsDocuments(db(), [
        documentRowOf('p-body', { path: 'a/body.md', body: 'we ship helm charts' }),
      ]);
      expect(await rankFtsMatches(db(), inWorkspace('deploy'), 10)).toEqual([]);
      const [after] = await rankFtsMatches(db(), inWorkspace('helm'), 10);
      expect(after).toMatchObject({ page_id: 'p-body', rid: before!.rid });
    });

    it('highlights the head and description, and the rest of a long body on request', async () => {
      const filler = 'filler words '.repeat(Math.ceil(BODY_HEAD / 13) + 10);
      await upsertFtsDocuments(db(), [
        documentRowOf('p-long', { body: `${filler} zephyr at the end`, description: 'about zephyr' }),
      ]);
      const [hit] = await rankFtsMatches(db(), inWorkspace('zephyr'), 10);
      const [snippet] = await ftsSnippets(db(), 'zephyr', [hit!.rid]);
      expect(snippet).toMatchObject({ rid: hit!.rid, has_rest: true });
      expect(snippet!.head).not.toContain(MARK_START);
      expect(snippet!.description).toContain(`${MARK_START}zephyr`);
      const rest = await ftsRestSnippets(db(), 'zephyr', [hit!.rid]);
      expect(rest.get(hit!.rid)).toContain(`${MARK_START}zephyr`);
      expect(await ftsSnippets(db(), 'zephyr', [])).toEqual([]);
    });

    it('refills a missing FTS table from the stored rows', async () => {
      await sql`drop table search_fts`.execute(db());
      await initSqliteFts(db());
      expect(ids(await rankFtsMatches(db(), inWorkspace('kubernetes'), 10))).toEqual(['p-title', 'p-draft']);
      expect(ids(await rankFtsMatches(db(), inWorkspace('zephyr'), 10))).toEqual(['p-long']);
    });

    it('deletes pages and workspaces from both tables', async () => {
      await deleteFtsDocuments(db(), ['p-title']);
      expect(await findDocumentRow(db(), 'p-title')).toBeUndefined();
      expect(ids(await rankFtsMatches(db(), inWorkspace('kubernetes'), 10))).toEqual(['p-draft']);
      await deleteWorkspaceFtsDocuments(db(), 'ws-b');
      expect(await findDocumentRow(db(), 'p-other')).toBeUndefined();
      const { rows } = await sql<{ n: number }>`select count(*) as n from search_fts`.execute(db());
      expect(Number(rows[0]!.n)).toBe(4);
    });
  },
  { only: 'sqlite' },
);
