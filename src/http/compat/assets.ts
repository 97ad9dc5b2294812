import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services/index.js';
import { MAX_UPLOAD_BYTES } from '../../services/pages/index.js';
import { requireActor } from '../auth-context.js';
import { incomingFile } from '../routes/uploads.js';
import { deprecatedRoute, paramsOf } from './layout.js';
import { ownScope } from '../route-scopes.js';

type Params = { Params: { id?: string; workspace?: string } };
const uploadsOf = (request: FastifyRequest) => {
  const { id, workspace } = paramsOf(request);
  return `/api/v1/content/${encodeURIComponent(workspace ?? id ?? '')}/uploads`;
};

/**
 * Asset uploads of the older layouts, over the uploads service (same types, 10 MB, edit
 * permission): Layout C's `POST /api/v1/workspaces/:id/assets` and Layout B's
 * `POST /api/v1/content/:workspace/assets`, multipart field `file`, answering 201 with
 * `path, url, size, content_type`.
 */
export function assetCompatRoutes(services: Services) {
  const { uploads } = services;
  return ownScope(async (app: FastifyInstance) => {
    await app.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 20 },
    });

    const upload = async (request: FastifyRequest<Params>) => {
      const actor = requireActor(request);
      const file = await incomingFile(request);
      try {
        const stored = await uploads.upload(actor, request.params.workspace ?? request.params.id ?? '', file);
        return { path: stored.path, url: stored.url, size: stored.size, content_type: stored.content_type };
      } finally {
        file.drain();
      }
    };
    const config = { rateLimit: 'contentWrite' } as const;

    const c = deprecatedRoute(uploadsOf, 'Layout C: upload an asset (multipart field file)');
    app.post<Params>('/api/v1/workspaces/:id/assets', { ...c, config }, async (request, reply) =>
      reply.code(201).send(await upload(request)),
    );
    const b = deprecatedRoute(uploadsOf, 'Layout B: upload an asset (multipart field file)');
    app.post<Params>('/api/v1/content/:workspace/assets', { ...b, config }, async (request, reply) =>
      reply.code(201).send(await upload(request)),
    );
  });
}
