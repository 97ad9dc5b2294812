import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { readPageMeta } from '../../domain/frontmatter.js';
import { normalizePagePath, parentFolder } from '../../domain/paths.js';
import { atLeast, CAN } from '../../domain/policy.js';
import { invalid } from '../../errors.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { PageRow } from '../../store/schema.js';
import { actorIdOf, record } from '../activity.js';
import type { PageContext } from './context.js';
import { defaultStatusOf, inSync, rowFor } from './page-object.js';
import { isIndexPageName } from '../../domain/page-extensions.js';
import { naturalOrder } from '../../lib/natural-order.js';

/** The API's tree node. Folders have `page_id: null`. */
export interface TreeNode {
  type: 'folder' | 'page';
  name: string;
  path: string;
  title: string;
  page_id: string | null;
  sort_order: number;
  children: TreeNode[];
}

export const reorderInput = z.object({
  parent_path: z.string().max(1024).default(''),
  order: z
    .array(
      z.object({
        id: z.string().min(1).max(100),
        sort_order: z.number().int().min(-2_147_483_647).max(2_147_483_647),
      }),
    )
    .min(1, 'order must list at least one page')
    .max(1000),
});

const byOrderThenName = (a: TreeNode, b: TreeNode): number =>
  a.sort_order - b.sort_order ||
  naturalOrder(a.name, b.name) ||
  (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function sortTree(nodes: TreeNode[]): TreeNode[] {
  for (const n of nodes) sortTree(n.children);
  return nodes.sort(byOrderThenName);
}

/** The index fields {@link buildTree} needs of each page. */
export interface TreeRow {
  id: string;
  path: string;
  title: string;
  sort_order: number;
}

/**
 * Nests pages by folder. Siblings are ordered by sort_order then name
 * (natural order). A folder takes its title and sort_order from its
 * `index.md` when it has one (else its name and 0). Pure, so the published
 * site builds its navigation with the same rules.
 */
export function buildTree(rows: readonly TreeRow[]): TreeNode[] {
  const root: TreeNode[] = [];
  const folders = new Map<string, TreeNode>();
  for (const row of rows) {
    const segments = row.path.split('/');
    let children = root;
    let folder: TreeNode | undefined;
    for (let i = 0; i < segments.length - 1; i++) {
      const path = segments.slice(0, i + 1).join('/');
      folder = folders.get(path);
      if (!folder) {
        const name = segments[i] ?? path;
        folder = { type: 'folder', name, path, title: name, page_id: null, sort_order: 0, children: [] };
        folders.set(path, folder);
        children.push(folder);
      }
      children = folder.children;
    }
    const name = segments[segments.length - 1] ?? row.path;
    children.push({
      type: 'page',
      name,
      path: row.path,
      title: row.title,
      page_id: row.id,
      sort_order: row.sort_order,
      children: [],
    });
    if (folder && isIndexPageName(name)) {
      folder.title = row.title;
      folder.sort_order = row.sort_order;
    }
  }
  return sortTree(root);
}

/** A folder path as the tree shows it ('' for the root), or 400 naming `parent_path`. */
function normalizeFolder(raw: string): string {
  const folder = raw.trim().replace(/^\/+|\/+$/g, '');
  if (folder === '') return '';
  try {
    if (normalizePagePath(`${folder}/x`) === `${folder}/x.md`) return folder;
  } catch {
    // reported below, naming the field the caller sent
  }
  throw invalid('parent_path', 'parent_path must be a folder of the workspace');
}

/**
 * Sets the order of pages within one folder: writes `order` into each page's
 * frontmatter (so it survives `rebuild`) and updates the rows, under the
 * workspace lock. Every id must be a page directly inside `parent_path`.
 */
export async function reorderPages(
  ctx: PageContext,
  actor: Actor,
  workspace: string,
  input: z.infer<typeof reorderInput>,
): Promise<void> {
  const { workspace: ws, role } = await ctx.deps.access.require(actor, workspace, CAN.edit);
  const parent = normalizeFolder(input.parent_path);
  const ids = input.order.map((o) => o.id);
  if (new Set(ids).size !== ids.length) throw invalid('order', 'Each page may appear only once in order');
  const files = ctx.filesOf(ws);
  const { clock, events } = ctx.deps;
  const actorId = actorIdOf(actor);

  const loadRows = () => pagesTable.listByIds(ctx.db, ws.id, ids);

  const changed = await ctx.deps.lock.run(ws.id, async () => {
    let rows = await loadRows();
    const read = async (list: PageRow[]) =>
      Promise.all(list.map(async (r) => ({ row: r, file: await files.read(r.path) })));
    let pages = await read(rows);
    if (pages.some((p) => !p.file || !inSync(p.row, p.file))) {
      await ctx.deps.reconciler.reconcileLocked(ws, { recordActivity: true });
      rows = await loadRows();
      pages = await read(rows);
    }
    const byId = new Map(pages.map((p) => [p.row.id, p]));
    const now = clock.now().toISOString();
    const updates: PageRow[] = [];
    for (const [i, item] of input.order.entries()) {
      const page = byId.get(item.id);
      if (!page?.file || (page.row.restricted === 1 && !atLeast(role, 'admin'))) {
        throw invalid(`order.${i}.id`, `No page with id ${item.id} in this workspace`);
      }
      const { row, file } = page;
      if (parentFolder(row.path) !== parent) {
        throw invalid(`order.${i}.id`, `${row.path} is not directly inside ${parent || 'the root folder'}`);
      }
      if (file.error !== undefined) {
        throw invalid(`order.${i}.id`, `${row.path} has invalid frontmatter; fix it before reordering`);
      }
      if (readPageMeta(file.frontmatter).order === item.sort_order && row.sort_order === item.sort_order)
        continue;
      const frontmatter = { ...file.frontmatter, order: item.sort_order };
      await ctx.fsWrite(row.path, () => files.write(row.path, frontmatter, file.body));
      const mode = 'lenient' as const;
      updates.push(
        rowFor({
          id: row.id,
          workspaceId: ws.id,
          path: row.path,
          file: { frontmatter, body: file.body },
          previous: row,
          mode,
          defaultStatus: defaultStatusOf(ws),
          now,
          updatedBy: actorId,
        }),
      );
    }
    if (updates.length === 0) return [];
    await ctx.db.transaction().execute(async (trx) => {
      for (const u of updates)
        await pagesTable.updateSortOrder(trx, { ...u, updated_at: now, updated_by: actorId });
      await record(trx, {
        workspaceId: ws.id,
        action: 'pages_reordered',
        path: parent === '' ? null : parent,
        actorId,
        at: now,
        details: { parent_path: parent, order: input.order },
      });
    });
    return updates;
  });
  for (const { path, title } of changed)
    events.emit('page-updated', { workspace_id: ws.id, path, actor: actorId, title });
}
