import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { pageNavigationAnswer } from '../../contract/page-navigation.js';
import { requireActor } from '../auth-context.js';
import { contentParams } from '../route-params.js';

/**
 * The workspace's pages in the reading order of the docs tool its site follows (MkDocs,
 * Docusaurus, GitBook), for the web app's sidebar; the folder tree stays at `…/tree`.
 */
export function navigationRoutes(services: Services) {
  const { pageNavigation } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/v1/content/:workspace/navigation',
      {
        config: { rateLimit: 'contentRead' },
        schema: { params: contentParams, response: { 200: pageNavigationAnswer } },
      },
      async (request) => pageNavigation.get(requireActor(request), request.params.workspace),
    );
  };
}
