import path from 'node:path';
import type { Config } from '../config.js';
import type { EventBus } from '../events/bus.js';
import { gitAvailable } from '../git/git.js';
import { KeyedLock, type WorkspaceLock } from '../git/lock.js';
import { createPgAdvisoryLock } from '../git/pg-lock.js';
import type { Logger } from '../logger.js';
import type { BucketName } from '../ratelimit/buckets.js';
import { createRenderPool, RenderTimeoutError } from '../render/render-pool.js';
import { createSearchIndex } from '../search/index.js';
import type { Store } from '../store/database.js';
import { createAccess } from './access.js';
import { createActivity } from './activity.js';
import { createAiService, createChatContext } from './ai/index.js';
import {
  configuredProviders,
  createApiKeys,
  createAuthenticator,
  createAuthService,
  createExternalSignIn,
  createJwtSigner,
  createOnboarding,
  createPasskeys,
  createPasswordHasher,
  createPasswordReset,
  createRegistrationPolicy,
  createSessions,
  createWsTokens,
  createWsTickets,
} from './identity/index.js';
import { createBackups, createHealthService, createMailWorker, createOutbox } from './operations/index.js';
import {
  communityPlanLimits,
  createComments,
  createInvitations,
  createMembers,
  createPeople,
  createShareLinks,
  type PlanLimits,
} from './collab/index.js';
import type { Clock } from '../lib/clock.js';
import { createGitSync } from './sync/index.js';
import { createImporter, createImportJobs } from './imports/index.js';
import { createHistory } from './history/index.js';
import {
  createMoveRecovery,
  createPageDiscovery,
  createPages,
  createOlderSearch,
  createPagesById,
  createPageTrash,
  createRebuilder,
  createReconciler,
  createSearchService,
  createTemplates,
  createUploads,
} from './pages/index.js';
import { createSettings, createWorkspaces, remoteRulesOf } from './workspaces/index.js';
import { randomToken, secretFileOnFirstUse } from '../lib/secrets.js';
import { createSiteServices, type TxtResolver } from './publishing/index.js';
import { meteredSearch } from '../metrics/metered-search.js';
import { type Metrics, NO_METRICS } from '../metrics/metrics.js';
import { createOutboundWebhooks, type DeliveryOptions } from './webhooks/index.js';
import type { HostResolver } from '../git/remote-url.js';
import { createChangeRequests } from './change-requests/index.js';
import { createCloudBilling } from './billing/index.js';
import { createCloudServices } from './cloud/index.js';
import { createCoAuthorNotes } from '../coedit/co-authors.js';

/** Spends one unit of a rate-limit bucket; false once it is exhausted. */
export type Quota = (bucket: BucketName, key: string) => Promise<boolean>;

export interface ServiceDeps {
  config: Config;
  store: Store;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  quota: Quota;
  /** TXT lookups for custom-domain verification (tests inject answers); `dns.promises` by default. */
  txtResolver?: TxtResolver;
  /** Prometheus instruments; none when absent. */
  metrics?: Metrics;
  webhooks?: WebhookOptions;
  gitCommitDebounceMs?: number;
}

/** Outbound webhook timing, and the resolver their SSRF check uses. */
export type WebhookOptions = DeliveryOptions & { resolveHost?: HostResolver };

/**
 * Builds every service from explicit dependencies. `services` is
 * what adapters (HTTP, MCP, WebSocket, CLI) receive: the capability facades and nothing
 * else. `runtime` is for the composition root and the CLI's admin commands: start-up
 * work, background work and the shared search index.
 */
export async function createServices(deps: ServiceDeps) {
  const { config, store, clock } = deps;
  const metrics = deps.metrics ?? NO_METRICS;
  const access = createAccess(store);
  // Work whose cost grows with what writers send runs in these workers (started on first use).
  const renderPool = createRenderPool({ workers: config.render.workers, timeoutMs: config.render.timeoutMs });
  // Bodies the workers cannot reduce to plain text within their budget are indexed as written.
  const plainText = (markdowns: readonly string[]) =>
    renderPool.plainTexts(markdowns).catch((err: unknown) => {
      if (err instanceof RenderTimeoutError) return [...markdowns];
      throw err;
    });
  // The index's dialect-only structures (FTS5 table, tsvector column) before any write.
  const searchIndex = meteredSearch(createSearchIndex(store, plainText), metrics);
  await searchIndex.init();
  const passwords = createPasswordHasher(config.argon2);
  const jwt = createJwtSigner(config.jwtKeyPath, clock);
  // The pepper file is read, or made on a first start, when a key is first created or
  // presented: making it (a write and two fsyncs) was the start's first wait on the disk.
  const { apiKeyPepper } = config;
  const pepper =
    apiKeyPepper !== undefined
      ? async () => apiKeyPepper
      : secretFileOnFirstUse(path.join(config.dataDir, 'api-key-pepper'), () => randomToken(32));
  const apiKeys = createApiKeys(store, clock, pepper);
  const sessions = createSessions(store, clock, jwt.keyId);
  const outbox = createOutbox(store, clock, Boolean(config.smtpUrl));

  const { dataDir, frontmatterMode } = config;
  const logger = deps.logger;
  // One lock per workspace for page writes, reconciliation and git work on its tree. On
  // PostgreSQL it is an advisory lock too, so instances sharing DATA_DIR serialise as well.
  const pgLock =
    store.dialect === 'postgres' && config.databaseUrl
      ? await createPgAdvisoryLock(config.databaseUrl, (error) =>
          logger.warn({ err: error }, 'the workspace lock connection failed'),
        )
      : null;
  const workspaceLock: WorkspaceLock = pgLock ?? new KeyedLock();
  const reconciler = createReconciler({
    store,
    clock,
    logger,
    searchIndex,
    lock: workspaceLock,
    // Ids written into files found on disk are committed by git sync, which hears of them.
    events: deps.events,
    dataDir,
    frontmatterMode,
    maxPageBytes: config.gitMaxPageBytes,
  });
  // The Cloud edition's plans and billing; its plan-backed limits replace the Community's none.
  const billing = config.edition === 'cloud' ? createCloudBilling({ config, store, clock, logger }) : null;
  const planLimits: PlanLimits = billing?.planLimits ?? { ...communityPlanLimits };
  const workspaces = createWorkspaces({
    ...{ store, clock, logger, access, searchIndex, dataDir },
    ...{ publicUrl: config.publicUrl, remoteRules: remoteRulesOf(config), planLimits },
  });
  // Page moves a crash interrupted; finished before start-up reconciliation, by `rebuild`,
  // and right after a move fails midway.
  const moveRecovery = createMoveRecovery({
    store,
    clock,
    logger,
    searchIndex,
    events: deps.events,
    lock: workspaceLock,
    dataDir,
  });
  const pages = createPages({
    store,
    clock,
    events: deps.events,
    logger,
    access,
    searchIndex,
    plainText,
    lock: workspaceLock,
    reconciler,
    moveRecovery,
    dataDir,
    frontmatterMode,
    // Only a plan that limits pages is asked; the Community's has none to ask.
    ...(billing ? { planLimits } : {}),
    // `?change_request=<n>`: the same page operations on that request's branch (built below).
    changeRequestTargets: (n) => changeRequests.pageTargets(n),
  });
  // Co-editing rooms note who else typed a page they saved; its commit names them.
  const coAuthors = createCoAuthorNotes();
  // Git sync: auto-commit of web edits, push, pull, webhooks, conflicts.
  const gitSync = createGitSync({
    coAuthors,
    ...{ config, store, events: deps.events, clock, logger, access, reconciler, pages, workspaces },
    lock: workspaceLock,
    metrics,
    ...(deps.gitCommitDebounceMs !== undefined ? { commitDebounceMs: deps.gitCommitDebounceMs } : {}),
  });
  // Every new organization gets a "Docs" workspace with a welcome page.
  const createStarterWorkspace = workspaces.createStarterWorkspace;

  const mailWorker = config.smtpUrl
    ? await createMailWorker({
        store,
        clock,
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        logger: deps.logger,
        metrics,
      })
    : null;
  if (mailWorker) outbox.onEnqueue(() => void mailWorker.drain().catch(() => undefined));

  const backups = createBackups({
    dataDir: config.dataDir,
    store,
    clock,
    logger: deps.logger,
    retentionDays: config.backups.retentionDays,
    intervalHours: config.backups.intervalHours,
  });
  // Collaboration, with the plan's seat limits.
  const publicUrl = config.publicUrl;
  const members = createMembers({ store, clock, access, events: deps.events, planLimits });
  const collaboration = {
    planLimits,
    members,
    people: createPeople({ store, access, members }),
    invitations: createInvitations({ store, clock, access, outbox, planLimits, publicUrl }),
    shareLinks: createShareLinks({ store, clock, access, planLimits, publicUrl }),
    comments: createComments({ store, clock, access, events: deps.events }),
    // `settings-changed` tells the published site, which caches settings, at once.
    settings: createSettings({
      ...{ store, clock, access, frontmatterMode, events: deps.events },
      // Pages without a `status` take the new default: the index is derived from the files again.
      reindexStatuses: (workspace) => reconciler.reconcile(workspace, { recordActivity: true }),
    }),
    onboarding: createOnboarding({ store, clock }),
    wsTokens: createWsTokens({ store, clock, jwtKeyPath: config.jwtKeyPath, keyReady: () => jwt.ready() }),
    // Layout C's single-use WebSocket tickets.
    wsTickets: createWsTickets({ store, clock }),
  };
  const registration = createRegistrationPolicy({
    store,
    mode: config.registration,
    invitations: collaboration.invitations,
    shareLinks: collaboration.shareLinks,
  });
  const auth = createAuthService({
    store,
    clock,
    passwords,
    jwt,
    sessions,
    createStarterWorkspace,
    registration,
  });
  // Publishing: published site, versions, export, quality, custom domains, analytics.
  const {
    start: startPublishing,
    stop: stopPublishing,
    ...publishing
  } = createSiteServices({
    ...{ config, store, events: deps.events, clock, logger, access, pages, settings: collaboration.settings },
    ...{ reconciler, git: gitSync, lock: workspaceLock, searchIndex, renderPool },
    ...(deps.txtResolver ? { txtResolver: deps.txtResolver } : {}),
    metrics,
    planLimits,
  });
  const outbound = createOutboundWebhooks({
    ...{ store, clock, logger, access, events: deps.events, dataDir: config.dataDir, metrics },
    rules: {
      allowPrivateHosts: config.webhookAllowPrivateHosts,
      ...(deps.webhooks?.resolveHost ? { resolveHost: deps.webhooks.resolveHost } : {}),
    },
    ...(deps.webhooks ? { options: deps.webhooks } : {}),
  });
  const passwordReset = createPasswordReset({
    store,
    clock,
    outbox,
    passwords,
    sessions,
    publicUrl: config.publicUrl,
    quota: deps.quota,
  });
  const uploads = createUploads({
    dataDir: config.dataDir,
    store,
    access,
    clock,
    lock: workspaceLock,
    events: deps.events,
    // Without sign-in, the published site decides.
    publicUpload: publishing.site.publicUpload,
    // Rich paste fetches remote images under the webhooks' SSRF rules (and their test opt-in).
    remoteRules: {
      allowPrivateHosts: config.webhookAllowPrivateHosts,
      ...(deps.webhooks?.resolveHost ? { resolveHost: deps.webhooks.resolveHost } : {}),
    },
  });
  const importer = createImporter({ access, pages, uploads, git: gitSync, dataDir });
  const rebuilder = createRebuilder({ store, clock, logger, dataDir, reconciler, moveRecovery });
  // Change requests: page edits on their own branch, reviewed, then merged like a pull.
  const changeRequests = createChangeRequests({
    ...{ store, clock, events: deps.events, logger, access, reconciler, dataDir, frontmatterMode },
    git: gitSync.branches,
  });

  const services = {
    access,
    auth,
    externalSignIn: createExternalSignIn({
      store,
      clock,
      logger,
      auth,
      providers: configuredProviders(config.oidc),
      publicUrl: config.publicUrl,
      passkeysEnabled: Boolean(config.webauthn.rpId && config.webauthn.origins.length),
    }),
    passkeys: createPasskeys({ store, clock, logger, auth, config: config.webauthn }),
    apiKeys,
    sessions,
    outbox,
    passwordReset,
    workspaces,
    pages,
    activity: createActivity({ store, access }),
    // Agent-facing views and the recoverable delete (MCP's svc_get_manifest, svc_get_context, svc_delete_page).
    discovery: createPageDiscovery({ store, access, pages, dataDir: config.dataDir }),
    // Layout C's pages by id, over the path-based pages service.
    pagesById: createPagesById({ store, access, pages }),
    trash: createPageTrash({ access, pages, clock, dataDir: config.dataDir }),
    // Page history read from git, and restoring a past version as a new save.
    history: createHistory({ store, access, pages, dataDir: config.dataDir }),
    search: createSearchService({ access, searchIndex }),
    // Layout B's search parameters.
    olderSearch: createOlderSearch({ store, access, searchIndex }),
    // AI: chat is grounded in pages found by the workspace's search and read as the caller.
    ai: createAiService({
      config: config.ai,
      store,
      access,
      logger,
      context: createChatContext({ access, workspaces, search: searchIndex, pages }),
    }),
    uploads,
    // Notion and Confluence exports (and folders of other docs tools' pages) into pages.
    importer,
    imports: createImportJobs({ access, importer }),
    gitSync,
    changeRequests,
    webhooks: outbound.webhooks,
    templates: createTemplates(),
    backups,
    /** Plans and billing: present only in the Cloud edition (its routes exist only then). */
    billing,
    ...collaboration,
    ...publishing,
    authenticate: createAuthenticator({ store, jwt, apiKeys }),
    health: createHealthService({
      store,
      dataDir: config.dataDir,
      gitVersion: gitAvailable,
      commitFailures: gitSync.commitFailures,
      reconciling: reconciler.startupProgress,
    }),
  };
  // Cloud edition: GDPR and the platform owner's administration (routes only with EDITION=cloud).
  const cloud = createCloudServices({
    ...{ store, clock, dataDir: config.dataDir, passwords, health: services.health },
    customDomains: publishing.customDomains,
    signIn: (userId, client) => auth.signIn(userId, client),
    sessionOf: async (token) => (await jwt.verify(token)).sessionId,
    ...(billing ? { onPlanChange: billing.plans.forget } : {}),
  });

  const runtime = {
    /** The search index the page services write through (tests make it fail on purpose). */
    searchIndex,
    mailWorker,
    /** The per-workspace write lock (tests hold it to show readers never wait on it). */
    workspaceLock,
    /** Co-authors of pages saved by co-editing rooms, for their commits. */
    coAuthors,

    /**
     * Reads the JWT key, or generates it on a first start; called once the server listens,
     * so a first start answers before the key is made, and fails if it cannot be.
     */
    ready: () => jwt.ready(),

    /**
     * Finishes page moves a crash interrupted; run before any request or start-up
     * reconciliation reads the files such a move left half-done.
     */
    finishPendingMoves: () => moveRecovery.finishPending(),

    /**
     * Records what a crash left uncommitted in each workspace's tree; run before any request,
     * so the start-up sweep commits that and no edit made after it.
     */
    snapshotLeftovers: () => gitSync.snapshotLeftovers(),

    /** Resolves when start-up reconciliation has finished; until then `/api/ready` is 503. */
    reconciled: () => reconciler.startupDone(),

    /** `folio rebuild`: recreates the page and search indexes from the files. */
    rebuild: rebuilder.rebuild,

    /**
     * Starts background work (mail delivery, periodic backups, reconciling each
     * workspace with its files); the server calls it once it listens.
     */
    start() {
      mailWorker?.start();
      backups.start();
      reconciler.startBackground();
      gitSync.start();
      outbound.delivery.start();
      startPublishing();
      changeRequests.start();
    },

    /** Stops background work, letting a run in progress finish. */
    async stop() {
      await mailWorker?.stop();
      await backups.stop();
      await reconciler.stop();
      await changeRequests.stop();
      await gitSync.stop();
      await outbound.delivery.stop();
      stopPublishing();
      await renderPool.close();
      await pgLock?.close();
    },
  };
  return { services: { ...services, cloud }, runtime };
}

/** The capability facades: everything an adapter may use. */
export type Services = Awaited<ReturnType<typeof createServices>>['services'];
/** Start-up and background work, for the composition root and the CLI's admin commands. */
export type ServicesRuntime = Awaited<ReturnType<typeof createServices>>['runtime'];
