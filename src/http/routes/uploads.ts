import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, invalid } from '../../errors.js';
import type { Services } from '../../services/index.js';
import { fromUrlInput, type IncomingFile, MAX_UPLOAD_BYTES } from '../../services/pages/index.js';
import { otherContent } from '../../contract/answers.js';
import { storedUpload } from '../../contract/pages.js';
import { requireActor } from '../auth-context.js';
import { UPLOAD_CSP } from '../security.js';
import { ownScope } from '../route-scopes.js';

/** The stored file, with the type its bytes show (an image, a PDF, any other file). */
const uploadedFile = otherContent(
  'application/octet-stream',
  'The uploaded file, inline or as an attachment',
);

type WorkspaceParams = { Params: { workspace: string } };
type FileParams = { Params: { workspace: string; filename: string } };

/**
 * `POST /api/v1/content/:workspace/uploads` and `GET …/uploads/:filename`.
 * These static `uploads` segments take precedence over the content routes' wildcard in
 * Fastify's router, whichever plugin registers first.
 */
export function uploadRoutes(services: Services) {
  const { uploads } = services;
  return ownScope(async (app: FastifyInstance) => {
    // Registered in this plugin's scope only: no other route accepts multipart bodies.
    await app.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 20 },
    });

    app.post<WorkspaceParams>(
      '/api/v1/content/:workspace/uploads',
      { config: { rateLimit: 'contentWrite' }, schema: { response: { 201: storedUpload } } },
      async (request, reply) => {
        const actor = requireActor(request);
        const file = await incomingFile(request);
        try {
          return reply.code(201).send(await uploads.upload(actor, request.params.workspace, file));
        } finally {
          file.drain();
        }
      },
    );

    // An image fetched from a URL (rich paste of a remote image), JSON `{ url }`.
    app.post<WorkspaceParams & { Body: z.infer<typeof fromUrlInput> }>(
      '/api/v1/content/:workspace/uploads/from-url',
      {
        schema: { body: fromUrlInput, response: { 201: storedUpload } },
        config: { rateLimit: 'contentWrite' },
      },
      async (request, reply) => {
        const actor = requireActor(request);
        const stored = await uploads.uploadFromUrl(actor, request.params.workspace, request.body.url);
        return reply.code(201).send(stored);
      },
    );

    app.get<FileParams>(
      '/api/v1/content/:workspace/uploads/:filename',
      { config: { rateLimit: 'contentRead' }, schema: { response: { 200: uploadedFile } } },
      async (request, reply) => {
        const { workspace, filename } = request.params;
        const file = await uploads.read(request.actor ?? null, workspace, filename);
        // Replaces the API policy: an SVG (or anything a browser might render) runs sandboxed.
        reply.header('Content-Security-Policy', UPLOAD_CSP);
        reply.header('Content-Type', file.contentType);
        reply.header('Content-Length', String(file.size));
        reply.header('Content-Disposition', contentDisposition(file.disposition, file.filename));
        reply.header('Cache-Control', request.actor ? 'private, max-age=300' : 'public, max-age=300');
        return reply.send(file.stream);
      },
    );
  });
}

/**
 * The multipart part named `file`, unread, so the service checks permissions before the
 * bytes are buffered. `drain` discards whatever was left unread (a refused upload) so the
 * connection stays usable.
 */
export async function incomingFile(request: FastifyRequest): Promise<IncomingFile & { drain(): void }> {
  if (!request.isMultipart())
    throw invalid('file', 'Send the file as multipart/form-data in the field "file"');
  const part = await request.file().catch(malformed);
  if (!part) throw invalid('file', 'The request holds no file; send it in the field "file"');
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw invalid('file', `Send the file in the field "file", not "${part.fieldname}"`);
  }
  return {
    filename: part.filename,
    read: () => part.toBuffer().catch(malformed),
    drain: () => {
      if (!part.file.readableEnded) part.file.resume();
    },
  };
}

/**
 * A multipart body the parser cannot read (no boundary, cut off mid-part) is the client's
 * fault: 400 naming `file`. Errors that already carry a status (the upload size limit) and
 * AppErrors pass through to the one error mapping.
 */
function malformed(error: unknown): never {
  if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number')
    throw error;
  throw invalid('file', 'The multipart body is malformed or incomplete');
}

/** RFC 6266 header with an ASCII fallback name and the exact name in RFC 5987 form. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
