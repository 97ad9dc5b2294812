import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSENT_COOKIE, type VisitorSignals } from '../../services/publishing/index.js';
import type { Services } from '../../services/index.js';
import type { CacheMode, SiteResponse } from '../../services/publishing/index.js';
import { UPLOAD_CSP } from '../security.js';
import { contentDisposition } from './uploads.js';

type SitePath = {
  Params: { workspace: string; '*': string };
  Querystring: { q?: unknown; version?: unknown };
};

/** Public sites are cached for 300 s; members-only pages are revalidated on every visit. */
const CACHE_CONTROL: Record<CacheMode, string> = {
  public: 'public, max-age=300',
  private: 'private, no-cache',
  revalidate: 'no-cache',
  immutable: 'public, max-age=31536000, immutable',
};

/** What the site's routes answer, for the API document: HTML pages and the files beside them. */
const siteText = (description: string) => ({
  description,
  content: { 'text/plain': { schema: z.string() } },
});
const SITE_ANSWERS = {
  page: {
    200: {
      description:
        'A page of the published site, its search results or a folder index (HTML); or one of the ' +
        "site's files: feed, sitemap, search index, llms.txt, stylesheet, script or upload",
      content: {
        'text/html': { schema: z.string() },
        'application/rss+xml': { schema: z.string() },
        'application/xml': { schema: z.string() },
        'application/json': { schema: z.unknown() },
        'text/plain': { schema: z.string() },
        'text/markdown': { schema: z.string() },
        'text/css': { schema: z.string() },
        'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) },
      },
    },
    301: z.null().describe("A page's old address, or a folder without its trailing slash, moved"),
  },
  root: { 301: z.null().describe('The site lives at `/p/:workspace/`, with the slash') },
  robots: { 200: siteText('robots.txt for the host') },
};

/** The site's own per-IP budget and CSP with a fresh nonce. */
const SITE = { surface: 'site', rateLimit: 'publishedDocs' } as const;

/** What analytics may know of a reader: DNT and GPC win over any cookie. */
export function visitorSignals(request: FastifyRequest): VisitorSignals {
  return {
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
    doNotTrack: request.headers.dnt === '1' || request.headers['sec-gpc'] === '1',
    consent: request.cookies?.[CONSENT_COOKIE] === 'granted',
  };
}

/** True when the client's `If-None-Match` names `etag` (weak comparison, RFC 9110 13.1.2). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

function send(request: FastifyRequest, reply: FastifyReply, res: SiteResponse): FastifyReply {
  if (res.type === 'redirect') {
    // Bounded, so a redirect that stops being right (a page created where a folder was) heals.
    return reply.header('Cache-Control', CACHE_CONTROL.public).redirect(res.location, 301);
  }
  reply.header('Cache-Control', CACHE_CONTROL[res.cache]);
  if (res.type === 'upload') {
    const { upload } = res;
    // Replaces the site policy: whatever a user uploaded runs sandboxed, if at all.
    reply.header('Content-Security-Policy', UPLOAD_CSP);
    reply.header('Content-Type', upload.contentType);
    reply.header('Content-Length', String(upload.size));
    reply.header('Content-Disposition', contentDisposition(upload.disposition, upload.filename));
    return reply.send(upload.stream);
  }
  const { etag } = res;
  if (etag) {
    reply.header('ETag', etag);
    if ((res.type === 'text' || res.status === 200) && etagMatches(request.headers['if-none-match'], etag)) {
      return reply.code(304).send();
    }
  }
  if (res.type === 'text') return reply.type(res.contentType).send(res.body);
  // The nonce goes in last, so the ETag above is the same for every request.
  const nonce = Buffer.from(request.cspNonce, 'utf8');
  const parts = res.chunks.flatMap((chunk, i) => (i === 0 ? [chunk] : [nonce, chunk]));
  return reply.code(res.status).type('text/html; charset=utf-8').send(Buffer.concat(parts));
}

/**
 * The published site: `/p/:workspace/` and everything below it (pages, search, feeds,
 * uploads, the theme stylesheet, versions). A verified custom domain reaches the same
 * routes through the app's URL rewrite.
 */
export function siteRoutes(services: Services) {
  const { site } = services;
  return (app: FastifyInstance) => {
    app.get<{ Params: { workspace: string } }>(
      '/p/:workspace',
      { config: SITE, schema: { response: SITE_ANSWERS.root } },
      async (request, reply) => {
        const { workspace } = request.params;
        // `/p/` names no site: the site's 404, not a redirect to `/p//`.
        if (!workspace) return serve(request, reply, '', '');
        return reply.redirect(`/p/${encodeURIComponent(workspace)}/`, 301);
      },
    );

    app.get(
      '/robots.txt',
      { config: SITE, schema: { response: SITE_ANSWERS.robots } },
      async (request, reply) => send(request, reply, await site.rootRobotsTxt()),
    );

    async function serve(request: FastifyRequest, reply: FastifyReply, workspace: string, path: string) {
      const { q, version } = (request.query as SitePath['Querystring'] | undefined) ?? {};
      const res = await site.serve({
        actor: request.actor,
        workspace,
        path,
        ...(typeof q === 'string' ? { query: q } : {}),
        ...(typeof version === 'string' ? { version } : {}),
        host: request.headers.host,
        visitor: visitorSignals(request),
      });
      return send(request, reply, res);
    }

    app.get<SitePath>(
      '/p/:workspace/*',
      { config: SITE, schema: { response: SITE_ANSWERS.page } },
      async (request, reply) => serve(request, reply, request.params.workspace, request.params['*']),
    );
  };
}
