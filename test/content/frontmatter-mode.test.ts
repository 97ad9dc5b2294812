import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/databases.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import {
  addMember,
  type ContentServer,
  eventually,
  fileIn,
  pageUrl,
  startOn,
  starterWorkspace,
} from './content-helpers.js';

const BROKEN = '---\ntitle: [unclosed\ntags: x\n---\n\nThe zanzibarquokka body.\n';

describeEachDatabase('invalid frontmatter ($name)', (target) => {
  describe.each(['lenient', 'strict'] as const)('in %s mode', (mode) => {
    let ctx: ContentServer;
    let owner: TestUser;
    let editor: TestUser;
    let ws: { id: string; slug: string };
    let original: { page_id: string; content_hash: string };

    beforeAll(async () => {
      ctx = await startOn(target, { env: { FRONTMATTER_MODE: mode } });
      owner = await registerUser(ctx.server);
      editor = await registerUser(ctx.server);
      ws = await starterWorkspace(ctx.server, owner);
      await addMember(ctx.server, ws.id, editor, 'editor');
      const res = await ctx.server.request('POST', pageUrl(ws.slug, 'broken.md'), {
        token: owner.token,
        body: { title: 'Last good title', tags: ['kept'], body: 'fine', publish: true },
      });
      original = res.body;
      // An author breaks the YAML by hand (or a git pull brings it in).
      fs.writeFileSync(fileIn(ctx.server, ws.id, 'broken.md'), BROKEN);
    });
    afterAll(() => ctx.cleanup());

    const get = (token: string) => ctx.server.request('GET', pageUrl(ws.slug, 'broken.md'), { token });
    const search = async (token: string) =>
      (await ctx.server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=zanzibarquokka`, { token }))
        .body;
    const treePaths = async (token: string) =>
      (
        (await ctx.server.request('GET', `/api/v1/content/${ws.slug}/tree`, { token })).body.tree as Array<{
          path: string;
        }>
      ).map((n) => n.path);

    if (mode === 'lenient') {
      it('keeps the last good frontmatter, takes the new body and warns', async () => {
        const res = await get(editor.token);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          page_id: original.page_id,
          title: 'Last good title',
          tags: ['kept'],
          status: 'published',
          content: 'The zanzibarquokka body.\n',
          restricted: false,
        });
        expect(res.body.frontmatter_error).toMatch(/^Invalid frontmatter/);
        expect(res.body.content_hash).not.toBe(original.content_hash);
        // The read served the file; the index catches up in the background.
        const found = await eventually(async () => {
          const paths = (await search(editor.token)).results.map((r: { path: string }) => r.path);
          return paths.length > 0 && paths;
        });
        expect(found).toEqual(['broken.md']);
        expect(await treePaths(editor.token)).toContain('broken.md');
      });

      it('lets an editor repair it with a PUT, which writes valid frontmatter back', async () => {
        const current = await get(editor.token);
        const res = await ctx.server.request('PUT', pageUrl(ws.slug, 'broken.md'), {
          token: editor.token,
          body: { lastKnownHash: current.body.content_hash, frontmatter: { title: 'Repaired' } },
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          title: 'Repaired',
          tags: ['kept'],
          frontmatter_error: null,
          page_id: original.page_id,
        });
        const text = fs.readFileSync(fileIn(ctx.server, ws.id, 'broken.md'), 'utf8');
        expect(text).toContain(`id: ${original.page_id}`);
        expect(text).toContain('title: Repaired');
      });
    } else {
      it('restricts the page to admins: 404 for an editor, visible to the Super Admin', async () => {
        const asEditor = await get(editor.token);
        expect(asEditor.status).toBe(404);
        expect(asEditor.body.error).toBe('NOT_FOUND');
        const asOwner = await get(owner.token);
        expect(asOwner.status).toBe(200);
        expect(asOwner.body).toMatchObject({
          page_id: original.page_id,
          restricted: true,
          title: 'Last good title',
        });
        expect(asOwner.body.frontmatter_error).toMatch(/^Invalid frontmatter/);
        // The read served the file; the index catches up in the background.
        await eventually(async () => !(await treePaths(editor.token)).includes('broken.md'));
        expect(await treePaths(owner.token)).toContain('broken.md');
        // Editors cannot write to it either.
        const put = await ctx.server.request('PUT', pageUrl(ws.slug, 'broken.md'), {
          token: editor.token,
          body: { body: 'x', lastKnownHash: asOwner.body.content_hash },
        });
        expect(put.status).toBe(404);
      });

      it('keeps it out of search for everyone', async () => {
        expect((await search(editor.token)).total).toBe(0);
        expect((await search(owner.token)).total).toBe(0);
      });

      it('lifts the restriction once the file is fixed', async () => {
        fs.writeFileSync(
          fileIn(ctx.server, ws.id, 'broken.md'),
          `---\nid: ${original.page_id}\ntitle: Fixed\n---\n\nThe zanzibarquokka body.\n`,
        );
        const res = await get(editor.token);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ title: 'Fixed', restricted: false, frontmatter_error: null });
        expect(await eventually(async () => (await search(editor.token)).total)).toBe(1);
      });
    }
  });
});
