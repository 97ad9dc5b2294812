/**
 * What a workspace's site navigation follows, for admins: the docs tools whose files were
 * found, the `nav_source` setting, the tool followed, and what of its navigation could not
 * be followed. The setting itself is written with the other workspace settings.
 */
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { notFound } from '../../errors.js';
import type { AccessService } from '../access.js';
import type { SiteContext } from './site/context.js';
import type { DetectedSource, NavSourceName, NavSourceSetting } from './site/nav-sources/index.js';

/** `GET /api/v1/workspaces/:id/admin/navigation`. */
export interface NavigationInfo {
  nav_source: NavSourceSetting;
  following: NavSourceName;
  detected: DetectedSource[];
  findings: string[];
  /** The status pages without one take: a docs tool's files usually set none. */
  default_page_status: 'draft' | 'published';
}

export function createNavigationInfo(deps: { access: AccessService; context: SiteContext }) {
  return {
    /** Admins of the workspace; the answer is the live site's own, so it says what readers see. */
    async get(actor: Actor, workspaceIdOrSlug: string): Promise<NavigationInfo> {
      const { workspace } = await deps.access.require(actor, workspaceIdOrSlug, CAN.readAdmin);
      const state = await deps.context.load(workspace.slug);
      if (!state) throw notFound('Workspace');
      const { setting, following, detected, findings } = state.navigation;
      return {
        ...{ nav_source: setting, following, detected, findings },
        default_page_status: state.settings.default_page_status,
      };
    },
  };
}
