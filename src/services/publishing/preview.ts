/**
 * The editor's live preview: a page's text as it would look on the published site, rendered
 * by the site's own renderer against the workspace's live published pages, so headings,
 * wikilinks, relative links and images come out exactly as `/p/<workspace>/…` will show them.
 */
import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { parsePageFile, readPageMeta, contentHash } from '../../domain/frontmatter.js';
import { normalizePagePath } from '../../domain/paths.js';
import { CAN, requireScope } from '../../domain/policy.js';
import { AppError } from '../../errors.js';
import { articleParts } from '../../render/layout.js';
import { THEME_NAMES } from '../../render/themes.js';
import type { AccessService } from '../access.js';
import { titleFromPath } from '../pages/page-object.js';
import type { SiteContext } from './site/context.js';
import type { SitePage } from './site/nav.js';
import type { SiteRenderer } from './site/render.js';
import { siteLinker, themeHref } from './site/response.js';
import { LIVE_VERSION_SLUG } from './versions.js';

/** The request body: where the page lives and its whole file text, frontmatter included. */
export const previewInput = z.strictObject({
  path: z.string().min(1).max(1024).describe('The page path inside the workspace, e.g. guides/start.md.'),
  content: z
    .string()
    .max(10 * 1024 * 1024)
    .describe('The whole page file: optional YAML frontmatter, then the Markdown body.'),
  theme: z
    .enum(THEME_NAMES, { error: `theme must be one of ${THEME_NAMES.join(', ')}` })
    .optional()
    .describe("Render in this theme instead of the workspace's, to compare themes before choosing one."),
});
export type PreviewInput = z.infer<typeof previewInput>;

/** What the preview shows: the article's HTML as the site has it, its title and the theme's stylesheet. */
export interface PagePreview {
  html: string;
  title: string;
  theme: string;
  stylesheet: string;
}

export interface PreviewDeps {
  access: AccessService;
  context: SiteContext;
  renderer: SiteRenderer;
}

export function createPreview(deps: PreviewDeps) {
  return {
    /** Renders `input.content` as the page at `input.path` (viewer or above). */
    async preview(actor: Actor, workspace: string, input: PreviewInput): Promise<PagePreview> {
      // Nothing is written, but it is a POST: API keys need the write scope.
      requireScope(actor, 'write');
      const { workspace: row } = await deps.access.require(actor, workspace, CAN.read);
      const path = normalizePagePath(input.path);
      const state = await deps.context.load(row.slug);
      if (!state) throw new AppError('NOT_FOUND', 'Workspace not found');
      const root = `/p/${encodeURIComponent(row.slug)}/`;
      // The live pages live at the root unless a default version took it.
      const linker = siteLinker(state.defaultVersion ? `${root}v/${LIVE_VERSION_SLUG}/` : root);
      const file = parsePageFile(input.content);
      const meta = readPageMeta(file.frontmatter);
      const published = state.live.byPath.get(path);
      const page: SitePage = {
        ...{ id: published?.id ?? '', path, sortOrder: published?.sortOrder ?? 0 },
        title: meta.title ?? titleFromPath(path),
        description: meta.description ?? '',
        contentHash: contentHash(file.body),
        updatedAt: published?.updatedAt ?? '',
      };
      const rendered = await deps.renderer.uncachedBody(state.live, page, file.body, linker);
      const { header, prose } = articleParts({ ...page, html: rendered.html });
      const theme = input.theme ?? state.settings.theme;
      return { html: header + prose, title: page.title, theme, stylesheet: themeHref(root, theme) };
    },
  };
}

export type PreviewService = ReturnType<typeof createPreview>;
