import { z } from 'zod';
import { listWorkspacesInput } from '../../services/workspaces/index.js';
import { searchInput } from '../../services/pages/index.js';
import { htmlToPlainText } from '../plain-text.js';
import { defineTool, noArgs } from '../tool.js';

/** The MCP discovery tools: search, context, workspaces, tree and the manifest. */
export const discoveryTools = [
  defineTool({
    name: 'search',
    title: 'Search pages',
    description:
      'Full-text search over the pages of the workspace, best match first (title and tags weigh most). Use it ' +
      'to find pages about a topic before reading them. Returns { query, total, results: [{ page_id, path, ' +
      'title, score, snippet }] } where snippet is plain text around the matches and total counts matching ' +
      'pages up to 1000 (1000 means that many or more).',
    // The HTTP route's `q` is `query` here, the word a model reaches for.
    input: z.object({ query: searchInput.shape.q, limit: searchInput.shape.limit }),
    scope: 'workspace',
    op: 'read',
    async run(ctx, { query, limit }) {
      const found = await ctx.services.search.search(ctx.actor, ctx.workspace, { q: query, limit });
      // The index gives HTML for pages; an agent reads the text itself.
      const results = found.results.map((hit) => ({ ...hit, snippet: htmlToPlainText(hit.snippet) }));
      return { ...found, results };
    },
  }),
  defineTool({
    name: 'get_context',
    title: 'Get a page with its surroundings',
    description:
      'Reads a page together with its parent (the folder index page), its sibling pages, the pages it links to, ' +
      'the links that point nowhere and the pages linking back to it, in one call. Use it before editing a page ' +
      'to understand where it sits. Returns { page, parent, siblings, linked_pages, missing_links, backlinks }.',
    input: z.object({ path: z.string().min(1).describe('Page path, e.g. "guides/setup.md".') }),
    scope: 'workspace',
    op: 'read',
    run: (ctx, args) => ctx.services.discovery.context(ctx.actor, ctx.workspace, args.path),
  }),
  defineTool({
    name: 'list_workspaces',
    title: 'List workspaces',
    description:
      'Lists the workspaces this API key can use (id, name, slug, your role, git remote, sync status). Use the ' +
      'slug as the `workspace` argument of the other tools. Returns { data, next_cursor }.',
    input: listWorkspacesInput,
    scope: 'global',
    op: 'read',
    run: (ctx, args) => ctx.services.workspaces.list(ctx.actor, args),
  }),
  defineTool({
    name: 'get_tree',
    title: 'Get the page tree',
    description:
      'The workspace as a tree of folders and pages in navigation order. Returns { tree: [{ type, name, path, ' +
      'title, page_id, sort_order, children }] }.',
    input: noArgs,
    scope: 'workspace',
    op: 'read',
    run: (ctx) => ctx.services.pages.tree(ctx.actor, ctx.workspace),
  }),
  defineTool({
    name: 'get_manifest',
    title: 'Get the workspace manifest',
    description:
      'A cheap map of the whole workspace: every page path, title, description, tags, status and content_hash, ' +
      'without page bodies. Use it first to plan work across many pages, and to notice which pages changed ' +
      '(their hash). Returns { pages, count }.',
    input: noArgs,
    scope: 'workspace',
    op: 'read',
    run: (ctx) => ctx.services.discovery.manifest(ctx.actor, ctx.workspace),
  }),
];
