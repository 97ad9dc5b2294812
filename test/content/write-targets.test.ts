/**
 * One set of page writes, run through the content API against both trees a write can land
 * in: the live workspace and a change request's branch (`?change_request=1`). Each case
 * asserts the bytes the write left: the file on disk for the live tree, `git show` of the
 * branch for the request. The rules are the same, so the bytes are too.
 */
import { mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGit } from '../../src/git/git.js';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { caller, contentUrl, openRequest } from '../change-requests/cr-helpers.js';
import { type SyncEnv, startSync, treeOf } from '../sync/sync-helpers.js';

const ID = {
  crlf: '01J0000000000000000000CR1F',
  bom: '01J00000000000000000000B0M',
  comments: '01J0000000000000000000C0MM',
  order: '01J00000000000000000000RDR',
  stale: '01J0000000000000000000STAE',
};

/** The files both trees start with: the live tree has them on disk, the request's branch from its start. */
const SEEDS: Record<string, string> = {
  'crlf.md': `---\r\nid: ${ID.crlf}\r\ntitle: Line endings\r\nstatus: draft\r\n---\r\n\r\nFirst line\r\n`,
  'bom.md': `\uFEFF---\nid: ${ID.bom}\ntitle: Byte order\n---\n\nHello\n`,
  'comments.md': `---\n# Written by hand\nid: ${ID.comments}\ntitle: Commented # shown in the nav\nstatus: draft\n---\n\nText\n`,
  'order.md': `---\nzeta: 1\ntitle: Ordered\nid: ${ID.order}\nalpha: two\n---\n\nText\n`,
  'stale.md': `---\nid: ${ID.stale}\ntitle: Stale\n---\n\nAs it was\n`,
};

describeEachDatabase('page writes on the live tree and in a change request ($name)', (db: DatabaseTarget) => {
  let env: SyncEnv;
  let slug: string;
  let workspaceId: string;

  beforeAll(async () => {
    env = await startSync(db, { gitCommitDebounceMs: 0 });
    const created = await caller(env, env.owner)('POST', '/api/v1/workspaces', {
      name: 'Targets',
      slug: `targets-${Date.now() % 1e8}`,
    });
    expect(created.status, created.text).toBe(201);
    ({ slug, id: workspaceId } = created.body);
    const tree = treeOf(env, workspaceId);
    for (const [file, text] of Object.entries(SEEDS)) {
      mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
      writeFileSync(path.join(tree, file), text);
    }
    // The request starts from the live tree, files on disk included.
    const request = await openRequest(env, env.owner, workspaceId);
    expect(request.number).toBe(1);
  });
  afterAll(() => env?.cleanup());

  const targets = [
    {
      name: 'live tree',
      n: undefined,
      /** The file's bytes on disk, or null. */
      bytes: async (file: string): Promise<Buffer | null> => {
        const abs = path.join(treeOf(env, workspaceId), file);
        return existsSync(abs) ? readFileSync(abs) : null;
      },
    },
    {
      name: 'change request',
      n: 1,
      /** The file's bytes on the request's branch, or null. */
      bytes: async (file: string): Promise<Buffer | null> => {
        const shown = await runGit(treeOf(env, workspaceId), ['show', `folio/cr/1:${file}`], {
          allowFailure: true,
        });
        return shown.code === 0 ? shown.stdoutBytes : null;
      },
    },
  ] as const;

  for (const target of targets) {
    describe(target.name, () => {
      const as = () => caller(env, env.owner);
      const url = (file: string) => contentUrl(slug, file, target.n);
      const hashOf = async (file: string): Promise<string> => {
        const read = await as()('GET', url(file));
        expect(read.status, read.text).toBe(200);
        return read.body.content_hash;
      };
      const put = async (file: string, body: Record<string, unknown>) =>
        as()('PUT', url(file), { lastKnownHash: await hashOf(file), ...body });
      const expectBytes = async (file: string, text: string | null) =>
        expect((await target.bytes(file))?.toString('utf8') ?? null, file).toBe(text);

      it('keeps CRLF line endings, changing one key and the body', async () => {
        const res = await put('crlf.md', { body: 'Second line\r\n', frontmatter: { status: 'published' } });
        expect(res.status, res.text).toBe(200);
        expect(res.body.status).toBe('published');
        await expectBytes(
          'crlf.md',
          `---\r\nid: ${ID.crlf}\r\ntitle: Line endings\r\nstatus: published\r\n---\r\n\r\nSecond line\r\n`,
        );
      });

      it('keeps a byte-order mark when the body changes', async () => {
        const res = await put('bom.md', { body: 'Goodbye\n' });
        expect(res.status, res.text).toBe(200);
        const bytes = await target.bytes('bom.md');
        expect(bytes?.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
        await expectBytes('bom.md', `\uFEFF---\nid: ${ID.bom}\ntitle: Byte order\n---\n\nGoodbye\n`);
      });

      it('keeps YAML comments when a key changes', async () => {
        const res = await put('comments.md', { frontmatter: { title: 'Renamed' } });
        expect(res.status, res.text).toBe(200);
        expect(res.body.title).toBe('Renamed');
        await expectBytes(
          'comments.md',
          `---\n# Written by hand\nid: ${ID.comments}\ntitle: Renamed # shown in the nav\nstatus: draft\n---\n\nText\n`,
        );
      });

      it('keeps the author key order, adding a new key last', async () => {
        const res = await put('order.md', { frontmatter: { alpha: 'three', description: 'Added' } });
        expect(res.status, res.text).toBe(200);
        await expectBytes(
          'order.md',
          `---\nzeta: 1\ntitle: Ordered\nid: ${ID.order}\nalpha: three\ndescription: Added\n---\n\nText\n`,
        );
      });

      it('creates a missing page on PUT without lastKnownHash (201)', async () => {
        const res = await as()('PUT', url('fresh/created.md'), {
          body: 'Fresh\n',
          frontmatter: { title: 'Fresh page' },
        });
        expect(res.status, res.text).toBe(201);
        expect(res.body.page_id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
        await expectBytes(
          'fresh/created.md',
          `---\nid: ${res.body.page_id}\ntitle: Fresh page\nstatus: draft\n---\n\nFresh\n`,
        );
      });

      it('refuses a stale hash with 409 and the current one, leaving the file alone', async () => {
        const current = await hashOf('stale.md');
        const res = await as()('PUT', url('stale.md'), {
          body: 'Overwritten\n',
          lastKnownHash: `sha256:${'0'.repeat(64)}`,
        });
        expect(res.status, res.text).toBe(409);
        expect(res.body.error).toBe('CONFLICT');
        expect(res.body.details).toMatchObject({
          current_hash: current,
          your_hash: `sha256:${'0'.repeat(64)}`,
        });
        await expectBytes('stale.md', SEEDS['stale.md']!);
      });

      it('refuses a reserved name with 400, writing nothing', async () => {
        const res = await as()('PUT', url('reorder.md'), { body: 'Nope\n' });
        expect(res.status, res.text).toBe(400);
        expect(res.body.error).toBe('VALIDATION_ERROR');
        expect(res.body.details).toMatchObject({ field: 'path' });
        await expectBytes('reorder.md', null);
      });
    });
  }
});
