import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../services/index.js';
import { zipFile } from '../../contract/answers.js';
import { publishResult, qualityReport } from '../../contract/publishing.js';
import { requireActor } from '../auth-context.js';
import { contentDisposition } from './uploads.js';

const siteZip = zipFile('The published site as static HTML, ready to serve from any web server');

type ById = { Params: { id: string } };

/**
 * Publishing a workspace, its static export and its quality report.
 * `POST /api/v1/workspaces/:id/publish` (admins) publishes every draft and makes the site
 * public; GET and POST `…/export` behave identically and stream the ZIP in the response.
 */
export function publishingRoutes(services: Services) {
  const { publishing, exports, quality } = services;
  return (app: FastifyInstance) => {
    app.post<ById>(
      '/api/v1/workspaces/:id/publish',
      { schema: { response: { 200: publishResult } } },
      async (request) => publishing.publishWorkspace(requireActor(request), request.params.id),
    );

    const exportSite = async (request: FastifyRequest<ById>, reply: FastifyReply) => {
      const { filename, stream } = await exports.exportSite(
        requireActor(request),
        request.params.id,
        request.query,
      );
      reply.header('Content-Type', 'application/zip');
      reply.header('Content-Disposition', contentDisposition('attachment', filename));
      reply.header('Cache-Control', 'no-store');
      return reply.send(stream);
    };
    const exportOptions = {
      config: { rateLimit: 'export' },
      schema: { response: { 200: siteZip } },
    } as const;
    app.get<ById>('/api/v1/workspaces/:id/export', exportOptions, exportSite);
    app.post<ById>('/api/v1/workspaces/:id/export', exportOptions, exportSite);

    app.get<ById>(
      '/api/v1/workspaces/:id/quality',
      { schema: { response: { 200: qualityReport } } },
      async (request) => quality.report(requireActor(request), request.params.id),
    );
  };
}
