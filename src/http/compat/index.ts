/**
 * The older layouts of docs/compatibility.md (docs/compatibility.md): thin adapters over the same
 * services as the current routes, each marked deprecated and pointing to its successor.
 * Layout B's list pagination is not a route but hooks on the current lists (lists.ts,
 * installed by the app before any route is added).
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { assetCompatRoutes } from './assets.js';
import { authCompatRoutes } from './auth.js';
import { healthCompatRoutes } from './health.js';
import { membersCompatRoutes } from './members.js';
import { moveCompatRoutes } from './move.js';
import { pagesByIdCompatRoutes } from './pages-by-id.js';
import { searchCompatRoutes } from './search.js';
import { webhookCompatRoutes } from './webhooks.js';
import { writingAssistCompatRoutes } from './writing-assist.js';

/** Every compatibility route plugin, registered after the current routes. */
export function compatRoutes(
  services: Services,
  version: string,
): Array<(app: FastifyInstance) => void | Promise<void>> {
  return [
    healthCompatRoutes(services.health, version),
    authCompatRoutes(services),
    pagesByIdCompatRoutes(services),
    membersCompatRoutes(services),
    webhookCompatRoutes(services),
    assetCompatRoutes(services),
    searchCompatRoutes(services),
    moveCompatRoutes(services),
    writingAssistCompatRoutes(services),
  ];
}
