import { z } from 'zod';

/**
 * `GET /api/v1/content/:workspace/navigation`: the workspace's pages in the order and with the
 * labels of the docs tool it follows, for the writers' sidebar.
 */

/** One entry of the tool's navigation: a page, a section (with its own page or not), a link. */
export type NavEntry =
  | { type: 'page'; path: string; title: string }
  | { type: 'section'; title: string; path: string | null; children: NavEntry[] }
  | { type: 'link'; title: string; href: string };

// Children are described rather than nested in the schema, as the tree's are: a recursive
// schema is not one the OpenAPI document can hold inline.
const navEntry = z.union([
  z.object({ type: z.literal('page'), path: z.string(), title: z.string() }),
  z.object({
    type: z.literal('section'),
    title: z.string(),
    path: z.string().nullable().describe("The section's own page, if it has one"),
    children: z.array(z.unknown()).describe('Entries of this same shape'),
  }),
  z.object({ type: z.literal('link'), title: z.string(), href: z.string() }),
]);

/** `GET /api/v1/content/:workspace/navigation`. */
export const pageNavigationAnswer = z.object({
  following: z.enum(['folio', 'mkdocs', 'docusaurus', 'gitbook']),
  /** The file the navigation is read from (`mkdocs.yml`, …); null when the folders are followed. */
  file: z.string().nullable(),
  items: z.array(navEntry),
  not_in_navigation: z.array(z.object({ type: z.literal('page'), path: z.string(), title: z.string() })),
  findings: z.array(z.string()),
});
export type PageNavigation = Omit<z.infer<typeof pageNavigationAnswer>, 'items'> & { items: NavEntry[] };
