import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Actor } from '../../domain/actor.js';
import { atLeast, CAN } from '../../domain/policy.js';
import { LruCache } from '../../lib/lru-cache.js';
import * as pagesTable from '../../store/repositories/pages.js';
import type { PageContext } from './context.js';
import { buildTree, type TreeNode } from './tree.js';

const gzipAsync = promisify(gzip);

/** Trees kept: one for admins and one for everyone else per workspace. */
const MAX_TREES = 64;
/** Their serialised size together (a 5,000-page tree is about 0.8 MB). */
const MAX_TREE_BYTES = 48 * 1024 * 1024;

/** A workspace's tree as the API sends it, built once per change of its pages. */
export interface TreeDocument {
  tree: TreeNode[];
  /** `{"tree":[…]}`, serialised once. */
  json: string;
  /** A strong validator of `json`, for If-None-Match. */
  etag: string;
  /** `json` gzipped, made on first demand. */
  gzipped(): Promise<Buffer>;
}

interface Entry {
  fingerprint: string;
  document: TreeDocument;
}

/**
 * The page tree per workspace and audience, kept while the workspace's pages do not
 * change. Whether they changed is one key lookup of the workspace's page revision (the
 * fingerprint the published site uses too), so every instance sharing a database sees a
 * change made by any of them, or found on disk, without being told.
 */
export function createTreeCache(ctx: PageContext) {
  const trees = new LruCache<Entry>(MAX_TREES, MAX_TREE_BYTES, (e) => e.document.json.length);

  function documentOf(tree: TreeNode[]): TreeDocument {
    const json = JSON.stringify({ tree });
    let zipped: Promise<Buffer> | null = null;
    return {
      tree,
      json,
      etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
      gzipped: () => (zipped ??= gzipAsync(json)),
    };
  }

  return {
    /** The tree `actor` may see: restricted pages are left out below admin. */
    async get(actor: Actor, workspace: string): Promise<TreeDocument> {
      const { workspace: ws, role } = await ctx.deps.access.require(actor, workspace, CAN.read);
      const admin = atLeast(role, 'admin');
      const key = `${ws.id}:${admin ? 'admin' : 'reader'}`;
      const fingerprint = await pagesTable.changeFingerprint(ctx.db, ws.id);
      const cached = trees.get(key);
      if (cached?.fingerprint === fingerprint) return cached.document;
      const rows = await pagesTable.listTreeRows(ctx.db, ws.id);
      const document = documentOf(buildTree(rows.filter((row) => row.restricted !== 1 || admin)));
      trees.set(key, { fingerprint, document });
      return document;
    },
  };
}
