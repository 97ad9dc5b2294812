import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { notFound } from '../../errors.js';
import { NAV_SOURCE_SETTINGS, type NavSourceSetting } from '../publishing/site/nav-sources/index.js';
import { THEME_NAMES, type ThemeName } from '../../render/themes.js';
import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/database.js';
import * as workspacesTable from '../../store/repositories/workspaces.js';
import { parseStoredSettings, writeStoredSettings } from '../../store/repositories/workspace-settings.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import { isEditUrlTemplate, suggestEditUrl } from './edit-url.js';

/** The API's workspace settings. */
export interface WorkspaceSettings {
  public_site: boolean;
  theme: ThemeName;
  site_title: string;
  site_description: string;
  frontmatter_mode: 'strict' | 'lenient';
  default_version: string | null;
  /** Approvals a change request needs before an editor may merge it (admins always may). */
  required_approvals: number;
  /** The site's "Edit this page" link for readers who cannot edit in Folio: a URL with `{path}`. */
  edit_url: string | null;
  /** Whether "Last updated" names the last author. */
  show_last_updated_author: boolean;
  /** Whose navigation the site follows: `auto` (what the files show), Folio's folders, or a tool's config. */
  nav_source: NavSourceSetting;
  /** Whether the editor's rich paste uploads remote images (else they stay links to their URL). */
  paste_remote_images: boolean;
  /** The status of a page whose frontmatter sets none (a docs tool's files have no `status`). */
  default_page_status: 'draft' | 'published';
}

/** What GET and PUT answer: the settings and the edit URL proposed from the git remote. */
export type SettingsAnswer = WorkspaceSettings & { suggested_edit_url: string | null };

/** PUT takes any subset; unknown keys are refused so a typo is not silently dropped. */
export const updateSettingsInput = z
  .object({
    public_site: z.boolean(),
    theme: z
      .enum(THEME_NAMES, { error: `theme must be one of ${THEME_NAMES.join(', ')}` })
      .describe(`One of ${THEME_NAMES.join(', ')}.`),
    site_title: z.string().trim().max(200),
    site_description: z.string().trim().max(2000),
    frontmatter_mode: z.enum(['strict', 'lenient']),
    default_version: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._-]+$/, 'default_version must be a version slug')
      .nullable(),
    required_approvals: z
      .number({ error: 'required_approvals must be a whole number from 0 to 5' })
      .int('required_approvals must be a whole number from 0 to 5')
      .min(0, 'required_approvals must be a whole number from 0 to 5')
      .max(5, 'required_approvals must be a whole number from 0 to 5')
      .describe('Approvals a change request needs before an editor may merge it (0 to 5).'),
    edit_url: z
      .string()
      .trim()
      .max(1000)
      .refine(isEditUrlTemplate, 'edit_url must be an http(s) URL containing {path}')
      .nullable()
      .describe('Template of the published site\'s "Edit this page" link; {path} is the page file\'s path.'),
    show_last_updated_author: z.boolean(),
    nav_source: z
      .enum(NAV_SOURCE_SETTINGS, { error: `nav_source must be one of ${NAV_SOURCE_SETTINGS.join(', ')}` })
      .describe(
        'Whose navigation the site follows: auto (the tool whose files the workspace has), folio (folders and order), mkdocs, docusaurus or gitbook.',
      ),
    paste_remote_images: z
      .boolean()
      .describe("Whether the editor's rich paste uploads remote images; when false they stay URL links."),
    default_page_status: z
      .enum(['draft', 'published'], { error: 'default_page_status must be draft or published' })
      .describe(
        'The status of a page whose frontmatter has no status: draft (the default) or published, for the files of a docs tool.',
      ),
  })
  .partial()
  .strict();

/**
 * The settings as stored merged over the defaults: the instance's
 * FRONTMATTER_MODE, the workspace name as site title, the `default` theme and
 * a private site. Each key is checked on its own; a stored value that is not
 * valid (or unreadable JSON) counts as nothing stored for that key. Every
 * reader of the settings goes through here.
 */
export function readSettings(
  workspace: Pick<WorkspaceRow, 'settings' | 'name'>,
  defaults: { frontmatterMode: 'strict' | 'lenient' },
): Readonly<WorkspaceSettings> {
  // Read on every save, render and site request, so the answer for the same stored text is
  // kept: parsing and checking a dozen keys each time was a measurable part of a save.
  const key = `${defaults.frontmatterMode}\0${workspace.name}\0${workspace.settings}`;
  let settings = recentSettings.get(key);
  if (!settings) {
    if (recentSettings.size >= RECENT_SETTINGS) recentSettings.clear();
    settings = Object.freeze(parseSettings(workspace, defaults));
    recentSettings.set(key, settings);
  }
  return settings;
}

/** Workspaces whose settings are kept parsed: more than an instance serves at once, and small. */
const RECENT_SETTINGS = 512;
const recentSettings = new Map<string, Readonly<WorkspaceSettings>>();

function parseSettings(
  workspace: Pick<WorkspaceRow, 'settings' | 'name'>,
  defaults: { frontmatterMode: 'strict' | 'lenient' },
): WorkspaceSettings {
  const stored = parseStoredSettings(workspace.settings);
  const valid = <K extends keyof typeof updateSettingsInput.shape>(key: K) => {
    const parsed = updateSettingsInput.shape[key].safeParse(stored[key]);
    return parsed.success ? parsed.data : undefined;
  };
  return {
    public_site: valid('public_site') ?? false,
    theme: valid('theme') ?? 'default',
    site_title: valid('site_title') || workspace.name,
    site_description: valid('site_description') ?? '',
    frontmatter_mode: valid('frontmatter_mode') ?? defaults.frontmatterMode,
    default_version: valid('default_version') ?? null,
    required_approvals: valid('required_approvals') ?? 0,
    edit_url: valid('edit_url') ?? null,
    show_last_updated_author: valid('show_last_updated_author') ?? true,
    nav_source: valid('nav_source') ?? 'auto',
    paste_remote_images: valid('paste_remote_images') ?? true,
    default_page_status: valid('default_page_status') ?? 'draft',
  };
}

const withSuggestion = (
  workspace: Pick<WorkspaceRow, 'git_remote' | 'git_branch'>,
  settings: WorkspaceSettings,
): SettingsAnswer => ({
  ...settings,
  suggested_edit_url: suggestEditUrl(workspace.git_remote, workspace.git_branch),
});

/** Workspace settings: read and written by admins. */
export function createSettings(deps: {
  store: Store;
  clock: Clock;
  access: AccessService;
  frontmatterMode: 'strict' | 'lenient';
  /** `settings-changed` goes out after a workspace's settings were written. */
  events?: EventBus;
  /**
   * Called when `default_page_status` changed, before the answer: the index then gives the
   * pages without a `status` their new one.
   */
  reindexStatuses?: (workspace: WorkspaceRow) => Promise<unknown>;
}) {
  const db = deps.store.db;
  const defaults = { frontmatterMode: deps.frontmatterMode };

  return {
    async get(actor: Actor, workspaceId: string): Promise<SettingsAnswer> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.readAdmin);
      return withSuggestion(workspace, readSettings(workspace, defaults));
    },

    /**
     * Merges the given keys into the stored settings (other keys stored by
     * other features are kept) and records `settings_updated` with the keys
     * that changed.
     */
    async update(
      actor: Actor,
      workspaceId: string,
      input: z.infer<typeof updateSettingsInput>,
    ): Promise<SettingsAnswer> {
      const { workspace } = await deps.access.require(actor, workspaceId, CAN.administer);
      const now = deps.clock.now().toISOString();
      const updated = await db.transaction().execute(async (trx) => {
        // Writing the row first locks it, and the re-read below then sees any
        // concurrent PUT's keys, so two admins changing different keys both land.
        await workspacesTable.touch(trx, workspace.id, now);
        const row = await workspacesTable.findById(trx, workspace.id);
        if (!row) throw notFound('Workspace');
        const before = readSettings(row, defaults);
        const changed = Object.keys(input).filter(
          (k) => before[k as keyof WorkspaceSettings] !== input[k as keyof typeof input],
        );
        const stored = parseStoredSettings(row.settings);
        const settings = await writeStoredSettings(trx, workspace.id, { ...stored, ...input });
        if (changed.length > 0) {
          await record(trx, {
            workspaceId: workspace.id,
            action: 'settings_updated',
            actorId: actorIdOf(actor),
            details: { changed: Object.fromEntries(changed.map((k) => [k, input[k as keyof typeof input]])) },
            at: now,
          });
        }
        return { settings: readSettings({ ...row, settings }, defaults), row: { ...row, settings }, before };
      });
      if (updated.before.default_page_status !== updated.settings.default_page_status)
        await deps.reindexStatuses?.(updated.row);
      deps.events?.emit('settings-changed', { workspace_id: workspace.id });
      return withSuggestion(workspace, updated.settings);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettings>;
