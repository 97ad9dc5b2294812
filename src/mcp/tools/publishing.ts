import { z } from 'zod';
import { resolveConflictInput } from '../../services/sync/index.js';
import { brokenLinksOf, createVersionInput, listVersionsInput } from '../../services/publishing/index.js';
import { argsFirst, defineTool, noArgs } from '../tool.js';

/** Quality, publishing, versions, export and sync: the services behind the same HTTP routes. */
export const publishingTools = [
  defineTool({
    name: 'validate_links',
    title: 'Find broken links',
    description:
      'Checks every internal link of the workspace: [[wikilinks]] and relative Markdown links whose page does not ' +
      'exist, [[wikilinks]] whose name or title several pages share, and #anchors missing on their target page. Needs the admin role. Returns { broken: [{ path, ' +
      'target, type, message }], count }.',
    input: noArgs,
    scope: 'workspace',
    op: 'read',
    run: async (ctx) => brokenLinksOf(await ctx.services.quality.report(ctx.actor, ctx.workspace)),
  }),
  defineTool({
    name: 'quality_scan',
    title: 'Scan documentation quality',
    description:
      'Scores the workspace 0–100 and lists per page: readability (Flesch), dead links, missing anchors, missing ' +
      'title or description, empty or very short pages, images without alt text and orphan pages. Needs the ' +
      'admin role. Returns { score, page_count, average_readability, issue_counts, pages }.',
    input: noArgs,
    scope: 'workspace',
    op: 'read',
    run: (ctx) => ctx.services.quality.report(ctx.actor, ctx.workspace),
  }),
  defineTool({
    name: 'publish_workspace',
    title: 'Publish the workspace',
    description:
      'Publishes every draft page of the workspace and makes its site public at /p/<workspace>/. Needs the admin ' +
      'role. Returns how many pages were published.',
    input: noArgs,
    scope: 'workspace',
    op: 'write',
    run: (ctx) => ctx.services.publishing.publishWorkspace(ctx.actor, ctx.workspace),
  }),
  defineTool({
    name: 'list_versions',
    title: 'List documentation versions',
    description:
      'The named versions of the documentation (e.g. v1, v2) with which one is the default. Returns { data, ' +
      'next_cursor }, each { slug, name, is_default, page_count, created_at }.',
    input: listVersionsInput,
    scope: 'workspace',
    op: 'read',
    run: (ctx, args) => ctx.services.versions.list(ctx.actor, ctx.workspace, args),
  }),
  defineTool({
    name: 'create_version',
    title: 'Freeze a documentation version',
    description:
      'Freezes the currently published pages as a named version (a git tag), served at /p/<workspace>/v/<slug>/ ' +
      'and unchanged by later edits. Needs the admin role. Returns the version.',
    input: createVersionInput,
    scope: 'workspace',
    op: 'write',
    run: (ctx, args) => ctx.services.versions.create(ctx.actor, ctx.workspace, args),
  }),
  defineTool({
    name: 'export',
    title: 'Export the site as static HTML',
    description:
      'Tells where to download the static HTML export of the published pages (a ZIP that works offline) and ' +
      'what it holds: page_count pages, and size_bytes, the total size of its files before compression (the ' +
      'ZIP itself is smaller). Returns { download_url, method, filename, size_bytes, page_count }.',
    input: noArgs,
    scope: 'workspace',
    op: 'read',
    async run(ctx) {
      const summary = await ctx.services.exports.summary(ctx.actor, ctx.workspace);
      return {
        download_url: `${ctx.publicUrl}/api/v1/workspaces/${summary.workspace_id}/export`,
        method: 'GET with Authorization: Bearer <your API key>',
        filename: summary.filename,
        size_bytes: summary.size_bytes,
        page_count: summary.page_count,
      };
    },
  }),
  defineTool({
    name: 'resolve_sync_conflict',
    title: 'Resolve a git sync conflict',
    description:
      'Resolves a conflict between the web copy and the git remote (list them with the conflicts of ' +
      'GET /api/v1/workspaces/<id>/conflicts): keep `ours` (the web version), `theirs` (the remote version), or ' +
      'give the merged `content`. Commits and pushes as you. Needs the editor role. Returns { message, page_id }.',
    // The conflict is in the HTTP route's URL; the check that one of the two is given stays.
    input: argsFirst({ conflict_id: z.string().min(1).describe('The conflict id.') }, resolveConflictInput),
    scope: 'workspace',
    op: 'write',
    needsSync: true,
    run: (ctx, { conflict_id, ...input }) =>
      ctx.services.gitSync.resolveConflict(ctx.actor, ctx.workspace, conflict_id, input),
  }),
];
