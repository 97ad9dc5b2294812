import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createCore, type Core, type CoreOptions } from './core.js';
import { removeStaleTempFiles } from './content/stale-temp-files.js';
import { META_DIR, WORKSPACES_DIR } from './content/workspace-meta.js';
import { buildHttpApp } from './http/app.js';
import { activityRoutes } from './http/routes/activity.js';
import { aiRoutes } from './http/routes/ai.js';
import { apiKeyRoutes } from './http/routes/api-keys.js';
import { authRoutes } from './http/routes/auth.js';
import { identityProviderRoutes } from './http/routes/identity-providers.js';
import { passkeyRoutes } from './http/routes/passkeys.js';
import { commentRoutes } from './http/routes/comments.js';
import { contentRoutes } from './http/routes/pages.js';
import { previewRoutes } from './http/routes/preview.js';
import { healthRoutes } from './http/routes/health.js';
import { mcpRoutes } from './http/routes/mcp.js';
import { invitationRoutes } from './http/routes/invitations.js';
import { memberRoutes } from './http/routes/members.js';
import { searchRoutes } from './http/routes/search.js';
import { settingsRoutes } from './http/routes/settings.js';
import { navigationRoutes } from './http/routes/navigation.js';
import { importRoutes } from './http/routes/imports.js';
import { shareLinkRoutes } from './http/routes/share-links.js';
import { templateRoutes } from './http/routes/templates.js';
import { uploadRoutes } from './http/routes/uploads.js';
import { workspaceRoutes } from './http/routes/workspaces.js';
import { analyticsRoutes } from './http/routes/analytics.js';
import { customDomainRoutes } from './http/routes/custom-domains.js';
import { publishingRoutes } from './http/routes/publishing.js';
import { siteRoutes } from './http/routes/site.js';
import { versionRoutes } from './http/routes/versions.js';
import { gitRemoteRoutes } from './http/routes/git-remote.js';
import { gitWebhookRoutes } from './http/routes/git-webhook.js';
import { syncRoutes } from './http/routes/sync.js';
import { wsRoutes } from './http/routes/ws.js';
import { webhookRoutes } from './http/routes/webhooks.js';
import { changeRequestRoutes } from './http/routes/change-requests.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { adminBillingRoutes } from './http/routes/admin-billing.js';
import { billingRoutes } from './http/routes/billing.js';
import { stripeWebhookRoutes } from './http/routes/stripe-webhook.js';
import { historyRoutes } from './http/routes/history.js';
import { gdprRoutes } from './http/routes/gdpr.js';
import { platformAdminRoutes } from './http/routes/platform-admin.js';
import { compatRoutes } from './http/compat/index.js';
import { startMetricsListener } from './http/metrics-listener.js';
import { createWebApp } from './http/web-app.js';
import { LOW_DISK_BYTES } from './services/operations/index.js';
import { moveMetadataOutOfTrees } from './services/workspaces/index.js';
import { DataDirInUseError, holdServerLock, runningServerPid } from './server-lock.js';
import { VERSION } from './version.js';
import { Hub } from './ws/hub.js';
import { createYjsChannel } from './ws/yjs-channel.js';
import { createRoomSnapshots } from './coedit/room-snapshots.js';
import type { Rooms } from './coedit/rooms.js';
import { lazyRooms } from './coedit/lazy-rooms.js';
import { createRedisRoomRelay } from './coedit/relay.js';
import { RedisBus } from './events/redis-bus.js';

export interface FolioOptions extends CoreOptions {
  /** Co-editing save timing, over COEDIT_SAVE_DELAY_MS and COEDIT_SAVE_MAX_WAIT_MS (tests use short waits). */
  coedit?: { debounceMs?: number; maxWaitMs?: number };
}

export interface Folio extends Omit<Core, 'close'> {
  app: FastifyInstance;
  /** The WebSocket hub (tests drive its presence sweep). */
  hub: Hub;
  /** The co-editing rooms, when FF_COEDIT is on. */
  rooms: Rooms | null;
  /** Starts listening; resolves with the bound address. */
  listen(): Promise<string>;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  close(): Promise<void>;
}

/** How long a stop waits for open responses before it closes their connections. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * The composition root: config -> store -> services -> adapters. Nothing here
 * is global, so a test builds as many independent instances as it likes.
 */
export async function createFolio(config: Config, options: FolioOptions = {}): Promise<Folio> {
  const core = await createCore(config, options);
  const { services, runtime, logger } = core;

  const free = await services.health.freeDiskBytes();
  if (free !== null && free < LOW_DISK_BYTES) {
    logger.warn({ free_bytes: free, data_dir: config.dataDir }, 'low disk space in the data directory');
  }

  // With Redis, rooms cross instances over a side channel of the event bus.
  let rooms: Rooms | null = null;
  const relay =
    config.coedit && core.redis && core.events instanceof RedisBus
      ? await createRedisRoomRelay(core.redis, core.events, (message) => rooms?.relayed(message))
      : null;
  // Yjs and the rooms load when a writer first joins a page (lazy-rooms.ts), and only with FF_COEDIT on.
  rooms = config.coedit
    ? lazyRooms({
        ...{ pages: services.pages, access: services.access, events: core.events, logger },
        relay,
        snapshots: createRoomSnapshots(config.dataDir),
        coAuthors: runtime.coAuthors,
        ...config.coeditSave,
        ...options.coedit,
      })
    : null;
  const hub = new Hub({
    yjs: createYjsChannel(rooms),
    events: core.events,
    access: services.access,
    userName: (userId) => services.people.nameOf(userId),
    clock: core.clock,
    logger,
  });
  const { metrics } = core;
  metrics.gauge('folio_websocket_connections', 'Open WebSocket connections', () => hub.stats().sockets);
  metrics.gauge(
    'folio_websocket_subscriptions',
    'Workspace subscriptions of open WebSockets',
    () => hub.stats().subscriptions,
  );

  const webApp = createWebApp();
  const billing = config.edition === 'cloud' ? services.billing : null;
  const app = await buildHttpApp({
    logger,
    trustProxy: config.trustProxy,
    publicOrigin: new URL(config.publicUrl).origin,
    limiter: core.limiter,
    buckets: core.buckets,
    perOrg: core.perOrg,
    authenticate: services.authenticate,
    // A verified custom domain serves its workspace's site at `/`.
    rewriteUrl: services.customDomains.rewriteUrl,
    notFoundFallback: webApp.fallback,
    apiReference: { version: VERSION },
    metrics,
    routes: [
      ...(metrics.enabled ? [metricsRoutes(metrics)] : []),
      healthRoutes(services.health, VERSION),
      authRoutes(services, config.publicUrl),
      identityProviderRoutes(services),
      passkeyRoutes(services),
      apiKeyRoutes(services),
      workspaceRoutes(services),
      syncRoutes(services),
      webhookRoutes(services),
      changeRequestRoutes(services),
      gitRemoteRoutes(services),
      gitWebhookRoutes(services),
      contentRoutes(services),
      navigationRoutes(services),
      previewRoutes(services),
      activityRoutes(services),
      historyRoutes(services),
      searchRoutes(services),
      uploadRoutes(services),
      templateRoutes(services),
      memberRoutes(services),
      invitationRoutes(services),
      shareLinkRoutes(services),
      commentRoutes(services),
      settingsRoutes(services),
      importRoutes(services),
      aiRoutes(services),
      wsRoutes(services, hub, config.publicUrl),
      // Publishing: the published site and what surrounds it.
      siteRoutes(services),
      versionRoutes(services),
      publishingRoutes(services),
      customDomainRoutes(services),
      analyticsRoutes(services, config.publicUrl),
      // The Cloud edition's billing: these routes do not exist in the Community edition.
      ...(billing ? [billingRoutes(billing), stripeWebhookRoutes(billing), adminBillingRoutes(billing)] : []),
      mcpRoutes(services, {
        offerSync: true,
        corsOrigins: config.mcpCorsOrigins,
        ...{ quota: core.orgQuota, logger, publicUrl: config.publicUrl, metrics },
      }),
      // Cloud edition only: GDPR and the platform owner's administration (404 in Community).
      ...(config.edition === 'cloud' ? [gdprRoutes(services), platformAdminRoutes(services)] : []),
      // The older layouts' routes, deprecated.
      ...compatRoutes(services, VERSION),
      // Last: its catch-all answers only what no other route claims.
      webApp.routes,
    ],
  });

  let closing: Promise<void> | null = null;
  let lock: { release(): Promise<void> } | null = null;
  let metricsListener: { port: number; close(): Promise<void> } | null = null;
  return {
    ...core,
    app,
    hub,
    rooms,
    async listen() {
      if (core.store.dialect === 'sqlite') {
        const other = await runningServerPid(config.dataDir);
        if (other !== null) throw new DataDirInUseError(config.dataDir, other);
      }
      // Older versions kept metadata and the move journal in the trees: moved out first.
      await moveMetadataOutOfTrees({ store: core.store, dataDir: config.dataDir, logger });
      // Only where nothing is written before listening (the key files in DATA_DIR may be).
      let stale = 0;
      for (const dir of [WORKSPACES_DIR, META_DIR])
        stale += await removeStaleTempFiles(path.join(config.dataDir, dir));
      if (stale > 0) logger.info({ files: stale }, 'removed temp files left by a crash');
      // Before any request or start-up reconciliation reads the files a crashed move left half-done.
      await runtime.finishPendingMoves();
      // Once the moves are whole and before any request: the start-up sweep commits only this.
      await runtime.snapshotLeftovers();
      const address = await app.listen({ port: config.port, host: config.host });
      if (metrics.enabled && config.metrics.port !== undefined) {
        metricsListener = await startMetricsListener(metrics, config.metrics.port);
        logger.info({ port: metricsListener.port }, 'metrics for local scraping on 127.0.0.1');
      }
      // Tells `folio rebuild` (and in-process `folio mcp`) that a server is using DATA_DIR.
      lock = await holdServerLock(config.dataDir);
      await runtime.ready();
      runtime.start();
      return address;
    },
    close() {
      closing ??= (async () => {
        // Unsaved co-edited text is saved while the services still run.
        await rooms?.close();
        hub.close();
        // Long-lived responses (an MCP event stream, an AI answer being streamed) would hold
        // the close open; they get a few seconds to finish, then their sockets are closed.
        const forceClose = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await app.close();
        clearTimeout(forceClose);
        await metricsListener?.close();
        await core.close();
        await lock?.release();
      })();
      return closing;
    },
  };
}
