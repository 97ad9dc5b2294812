import type { PlanLimits } from '../collab/plan-limits.js';
import type { Config } from '../../config.js';
import type { EventBus } from '../../events/bus.js';
import type { WorkspaceLock } from '../../git/lock.js';
import type { Logger } from '../../logger.js';
import type { SearchIndex } from '../../search/search-index.js';
import type { Store } from '../../store/database.js';
import type { AccessService } from '../access.js';
import { createAnalytics } from './analytics.js';
import type { Clock } from '../../lib/clock.js';
import type { GitSyncService } from '../sync/git-sync.js';
import { createCustomDomains, systemTxtResolver, type TxtResolver } from './custom-domains.js';
import { createExport } from './export.js';
import type { PagesService } from '../pages/pages.js';
import { createPreview } from './preview.js';
import { createNavigationInfo } from './navigation.js';
import { createPageNavigation } from './page-navigation.js';
import { createPublishing } from './publish.js';
import { createQuality } from './quality.js';
import type { Reconciler } from '../pages/reconcile.js';
import type { SettingsService } from '../workspaces/settings.js';
import { createSite } from './site/site.js';
import { createSiteContext } from './site/context.js';
import type { RenderPool } from '../../render/render-pool.js';
import { createSiteRenderer } from './site/render.js';
import { createSiteSearch } from './site/site-search.js';
import { createPageAuthors } from './site/authors.js';
import { createVersions } from './versions.js';
import type { Metrics } from '../../metrics/metrics.js';

export interface SiteServicesDeps {
  config: Config;
  store: Store;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  access: AccessService;
  pages: PagesService;
  settings: SettingsService;
  reconciler: Reconciler;
  lock: WorkspaceLock;
  /** Versions commit and tag through the git layer. */
  git: Pick<GitSyncService, 'commitEverythingLocked'>;
  searchIndex: SearchIndex;
  /** The render workers the site, the Markdown files and the quality checks share with search. */
  renderPool: RenderPool;
  /** TXT lookups for custom-domain verification; the system resolver by default. */
  txtResolver?: TxtResolver;
  metrics?: Pick<Metrics, 'site'>;
  /** The Cloud edition's plan limits (analytics is not in every plan). */
  planLimits?: Pick<PlanLimits, 'allowsAnalytics'>;
}

/**
 * Publishing: the published site and everything around it — versions, the
 * static export, quality reports, custom domains, analytics and publishing a workspace.
 * One renderer and one site context are shared, so the site and the export render
 * through the same cache.
 */
export function createSiteServices(deps: SiteServicesDeps) {
  const { config, store, clock, logger, access } = deps;
  const { dataDir, frontmatterMode } = config;
  const versions = createVersions({
    ...{ store, clock, logger, access, dataDir, frontmatterMode },
    ...{ settings: deps.settings, reconciler: deps.reconciler, lock: deps.lock, git: deps.git },
    events: deps.events,
  });
  const analytics = createAnalytics({
    ...{ store, clock, access, logger, edition: config.edition },
    ...(deps.planLimits ? { planAllows: deps.planLimits.allowsAnalytics } : {}),
  });
  const customDomains = createCustomDomains({
    ...{ store, clock, access, logger, publicUrl: config.publicUrl },
    resolver: deps.txtResolver ?? systemTxtResolver,
  });
  const { renderPool } = deps;
  const renderer = createSiteRenderer({ pool: renderPool, maxBytes: config.render.maxBytes });
  const context = createSiteContext({
    store,
    events: deps.events,
    access,
    versions,
    dataDir,
    frontmatterMode,
  });
  const siteSearch = createSiteSearch();
  const authors = createPageAuthors({ store, dataDir });
  const site = createSite({
    ...{ store, context, renderer, analytics, customDomains, siteSearch, access, authors },
    ...{ searchIndex: deps.searchIndex, publicUrl: config.publicUrl },
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });

  return {
    site,
    versions,
    analytics,
    customDomains,
    exports: createExport({ access, context, renderer }),
    preview: createPreview({ access, context, renderer }),
    navigation: createNavigationInfo({ access, context }),
    pageNavigation: createPageNavigation({ store, access, dataDir, frontmatterMode }),
    quality: createQuality({ store, access, dataDir, pool: renderPool }),
    publishing: createPublishing({
      ...{ store, clock, access, events: deps.events },
      ...{ pages: deps.pages, settings: deps.settings },
    }),

    /** Custom-domain refresh and analytics pruning run on timers. */
    start() {
      customDomains.start();
      analytics.start();
    },

    stop() {
      customDomains.stop();
      analytics.stop();
    },
  };
}

export {
  analyticsRangeInput,
  CONSENT_COOKIE,
  consentInput,
  searchesReportInput,
  type VisitorSignals,
} from './analytics.js';
export { allowedDomainInput, customDomainInput, type TxtResolver } from './custom-domains.js';
export type { CacheMode, SiteResponse } from './site/site.js';
export { brokenLinksOf } from './quality.js';
export { previewInput, type PagePreview, type PreviewInput } from './preview.js';
export { createVersionInput, listVersionsInput } from './versions.js';
