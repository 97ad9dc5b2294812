import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteAccountInput, type Download } from '../../services/cloud/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { clearSessionCookies } from '../cookies.js';
import { contentDisposition } from './uploads.js';
import { noContent, zipFile } from '../../contract/answers.js';
import { impersonationStatus } from '../../contract/gdpr.js';

const orgParams = z.object({ handle: z.string().describe("The organization's handle") });

/** Streams a ZIP download, never cached. */
export function sendZip(reply: FastifyReply, download: Download): FastifyReply {
  reply.header('Content-Type', 'application/zip');
  reply.header('Content-Disposition', contentDisposition('attachment', download.filename));
  reply.header('Cache-Control', 'no-store');
  return reply.send(download.stream);
}

/**
 * The Cloud edition's GDPR routes: a user's data export (one a day, the
 * `dataExport` bucket), account deletion, an organization's export, and the impersonation
 * banner's question and its end. Registered only with EDITION=cloud.
 */
export function gdprRoutes(services: Services) {
  const { gdpr, impersonation } = services.cloud;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    const myExport = {
      response: { 200: zipFile('Everything Folio holds about the caller, as JSON files in a ZIP') },
    };
    app.get(
      '/api/v1/users/me/export',
      { config: { rateLimit: 'dataExport' }, schema: myExport },
      async (request, reply) => sendZip(reply, await gdpr.exportMyData(requireActor(request))),
    );

    app.delete(
      '/api/v1/users/me',
      {
        schema: { body: deleteAccountInput.optional(), response: { 204: noContent } },
        preValidation: requireSignedIn,
      },
      async (request, reply) => {
        await gdpr.deleteMyAccount(requireActor(request), request.body ?? {});
        clearSessionCookies(reply);
        return reply.code(204).send();
      },
    );

    const orgExport = {
      params: orgParams,
      response: { 200: zipFile("The organization's workspaces, members and settings in a ZIP") },
    };
    app.get('/api/v1/orgs/:handle/export', { schema: orgExport }, async (request, reply) =>
      sendZip(reply, await gdpr.exportOrg(requireActor(request), request.params.handle)),
    );

    const status = { schema: { response: { 200: impersonationStatus } } };
    app.get('/api/v1/users/me/impersonation', status, async (request) =>
      impersonation.status(requireActor(request)),
    );

    const end = { schema: { response: { 204: noContent } } };
    app.delete('/api/v1/users/me/impersonation', end, async (request, reply) => {
      await impersonation.end(requireActor(request));
      clearSessionCookies(reply);
      return reply.code(204).send();
    });
  };
}
