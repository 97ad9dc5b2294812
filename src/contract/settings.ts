import { z } from 'zod';
import { record, timestamp } from './shape.js';

/** The published site's themes. */
export const themeName = z.enum(['default', 'dark', 'forest', 'rose', 'amber', 'minimal', 'corporate']);

/** Which navigation the site follows: `auto` (what the files show), Folio's folders or a tool's config. */
export const navSourceSetting = z.enum(['auto', 'folio', 'mkdocs', 'docusaurus', 'gitbook']);
const navSourceName = z.enum(['folio', 'mkdocs', 'docusaurus', 'gitbook']);
const pageStatus = z.enum(['draft', 'published']);

/** GET and PUT `…/admin/settings`: the settings and the edit URL proposed from the git remote. */
export const workspaceSettings = record({
  public_site: z.boolean(),
  theme: themeName,
  site_title: z.string(),
  site_description: z.string(),
  frontmatter_mode: z.enum(['strict', 'lenient']),
  default_version: z.string().nullable(),
  required_approvals: z
    .number()
    .int()
    .describe('Approvals a change request needs before an editor may merge it'),
  edit_url: z.string().nullable().describe('The site\'s "Edit this page" link: a URL with {path}'),
  show_last_updated_author: z.boolean(),
  nav_source: navSourceSetting,
  paste_remote_images: z.boolean().describe("Whether the editor's rich paste uploads remote images"),
  default_page_status: pageStatus.describe('The status of a page whose frontmatter sets none'),
  suggested_edit_url: z.string().nullable().describe('Proposed from the git remote; read-only'),
});
export type WorkspaceSettings = z.infer<typeof workspaceSettings>;

/** GET `…/admin/navigation`: whose navigation the site follows, and what was found. */
export const navigationInfo = record({
  nav_source: navSourceSetting,
  following: navSourceName,
  detected: z.array(record({ source: z.enum([...navSourceName.options, 'obsidian']), file: z.string() })),
  findings: z.array(z.string()),
  default_page_status: pageStatus.describe('The status of a page whose frontmatter sets none'),
});
export type NavigationInfo = z.infer<typeof navigationInfo>;

const onboardingSteps = record({
  create_page: z.boolean(),
  invite_member: z.boolean(),
  connect_git: z.boolean(),
  publish_site: z.boolean(),
  create_api_key: z.boolean(),
});

/** GET and PATCH `/api/v1/users/me/onboarding`: the new user's checklist. */
export const onboardingState = record({
  steps: onboardingSteps,
  dismissed: z.boolean(),
  completed: z.boolean(),
  updated_at: timestamp.nullable(),
});
export type OnboardingState = z.infer<typeof onboardingState>;
