import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../lib/clock.js';
import { buildTestServices, type TestServices } from '../../../test/helpers/services.js';

describe('pages service', () => {
  let t: TestServices;
  const clock = manualClock(new Date('2026-03-01T09:00:00Z'));

  beforeEach(async () => {
    t = await buildTestServices({ clock });
  });
  afterEach(() => t.close());

  it('creates, updates and reads a page as an editor, file and index agreeing', async () => {
    const { owner, workspace, editor } = await t.fixtures.team({ editor: 'editor' });
    const pages = t.services.pages;

    const created = await pages.create(editor.actor, workspace.slug, 'guides/start.md', {
      title: 'Start here',
      body: 'First draft.\n',
      tags: ['intro', 'intro'],
    });
    expect(created).toMatchObject({ path: 'guides/start.md', title: 'Start here', status: 'draft' });
    expect(created.tags).toEqual(['intro']);
    expect(created.updated_by).toBe(editor.user.id);
    expect(created.created_at).toBe('2026-03-01T09:00:00.000Z');

    clock.advance(60_000);
    const { page: updated, created: wasCreated } = await pages.update(
      owner.actor,
      workspace.id,
      'guides/start.md',
      { body: 'Second draft.\n', lastKnownHash: created.content_hash, frontmatter: { status: 'published' } },
    );
    expect(wasCreated).toBe(false);
    expect(updated.content_hash).not.toBe(created.content_hash);
    expect(updated).toMatchObject({ status: 'published', updated_by: owner.user.id });
    expect(updated.updated_at).toBe('2026-03-01T09:01:00.000Z');
    expect(updated.created_at).toBe(created.created_at);

    const read = await pages.read(editor.actor, workspace.slug, 'guides/start.md');
    expect(read.content).toBe('Second draft.\n');
    expect(read.page_id).toBe(created.page_id);
    // Files are the truth: the tree holds the new body under the page's frontmatter.
    const file = fs.readFileSync(path.join(t.dataDir, 'workspaces', workspace.id, 'guides/start.md'), 'utf8');
    expect(file).toMatch(/^---\n[\s\S]*status: published[\s\S]*\n---\n/);
    expect(file.endsWith('Second draft.\n')).toBe(true);

    expect(t.emitted.map((e) => [e.type, e.payload.workspace_id])).toEqual([
      ['page-created', workspace.id],
      ['page-updated', workspace.id],
    ]);
  });

  it('refuses a viewer that writes (FORBIDDEN) and an outsider that reads (NOT_FOUND)', async () => {
    const { workspace, viewer } = await t.fixtures.team({ viewer: 'viewer' });
    const outsider = await t.fixtures.account();
    const page = await t.fixtures.page(workspace.id, { path: 'notes.md', title: 'Notes', body: 'Hi.\n' });

    expect((await t.services.pages.read(viewer.actor, workspace.slug, 'notes.md')).title).toBe('Notes');
    await expect(
      t.services.pages.update(viewer.actor, workspace.slug, 'notes.md', {
        body: 'Defaced.\n',
        lastKnownHash: page.content_hash,
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      t.services.pages.create(viewer.actor, workspace.slug, 'new.md', { title: 'New' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // A workspace the caller cannot read does not exist as far as they can tell.
    await expect(t.services.pages.read(outsider.actor, workspace.slug, 'notes.md')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });

    expect((await t.services.pages.read(viewer.actor, workspace.id, 'notes.md')).content).toBe('Hi.\n');
    expect(t.emitted).toEqual([]);
  });

  it('answers CONFLICT to an update from a stale hash and to a create over an existing page', async () => {
    const { owner, workspace } = await t.fixtures.team();
    const page = await t.fixtures.page(workspace.id, { path: 'a.md', body: 'one\n' });
    const first = await t.services.pages.update(owner.actor, workspace.id, 'a.md', {
      body: 'two\n',
      lastKnownHash: page.content_hash,
    });

    await expect(
      t.services.pages.update(owner.actor, workspace.id, 'a.md', {
        body: 'three\n',
        lastKnownHash: page.content_hash,
      }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { current_hash: first.page.content_hash, modified_by: owner.user.id },
    });
    await expect(
      t.services.pages.create(owner.actor, workspace.id, 'a.md', { title: 'Again' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', details: { page_id: page.id } });
    expect((await t.services.pages.read(owner.actor, workspace.id, 'a.md')).content).toBe('two\n');
  });

  it('finds a fixture page through search, as the services index it', async () => {
    const { owner, workspace } = await t.fixtures.team();
    await t.fixtures.page(workspace.id, { path: 'ferns.md', title: 'Ferns', body: 'Spores, not seeds.\n' });
    await t.fixtures.page(workspace.id, { path: 'moss.md', title: 'Moss', body: 'Also spores.\n' });

    const found = await t.services.search.search(owner.actor, workspace.slug, { q: 'seeds', limit: 20 });
    expect(found.results.map((r) => r.path)).toEqual(['ferns.md']);
  });
});
