import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../errors.js';
import {
  analyticsRangeInput,
  CONSENT_COOKIE,
  consentInput,
  searchesReportInput,
} from '../../services/publishing/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';
import {
  analyticsOverview,
  analyticsPages,
  analyticsSearches,
  consentAnswer,
} from '../../contract/analytics.js';
import { setCookie } from '../cookies.js';
import { fromOwnOrigin } from '../same-origin.js';
import { visitorSignals } from './site.js';
import { ownScope } from '../route-scopes.js';

/** A reader's choice is remembered for a year. */
const CONSENT_MAX_AGE = 365 * 24 * 3600;
const FORM = 'application/x-www-form-urlencoded';
/** Readers give consent signed in or not; a stale session cookie must not stand in their way. */
const CONSENT = { rateLimit: 'publishedDocs', auth: 'none' } as const;

/** Only a path on this host: never `//elsewhere` or a URL. */
function safeReturn(value: unknown): string | null {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) && !/[\r\n]/.test(value) ? value : null;
}

/**
 * `POST /api/analytics/consent` (JSON `{ consent }`, or the site footer's form, which comes
 * back to its page) and the admins' reports under `/api/v1/workspaces/:id/analytics/`.
 */
export function analyticsRoutes(services: Services, publicUrl: string) {
  const { analytics } = services;
  const publicOrigin = new URL(publicUrl).origin;
  // A cross-site page must not be able to give consent on the reader's behalf (checked first).
  const ownOrigin = async (request: FastifyRequest) => {
    if (!fromOwnOrigin(request, publicOrigin)) throw forbidden('Consent can only be given on this site');
  };
  return ownScope((scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    // The site's consent form works without JavaScript, so it posts a form; only this scope parses one.
    app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    app.post(
      '/api/analytics/consent',
      {
        config: CONSENT,
        schema: {
          body: consentInput,
          response: {
            200: consentAnswer,
            303: z.null().describe('A form post from the published site goes back to its page'),
          },
        },
        preValidation: ownOrigin,
      },
      async (request, reply) => {
        const { consent, return_to } = request.body;
        setCookie(reply, CONSENT_COOKIE, consent ? 'granted' : 'denied', CONSENT_MAX_AGE);
        const back = request.headers['content-type']?.startsWith(FORM) ? safeReturn(return_to) : null;
        if (back) return reply.redirect(back, 303);
        // DNT and GPC win over consent: say so, so a client does not believe it is counted.
        return { consent, recording: consent && !visitorSignals(request).doNotTrack };
      },
    );

    const report = <Q extends typeof analyticsRangeInput, R extends z.ZodType>(
      querystring: Q,
      answer: R,
    ) => ({
      schema: { params: workspaceParams, querystring, response: { 200: answer } },
      preValidation: requireSignedIn,
    });
    app.get(
      '/api/v1/workspaces/:id/analytics/overview',
      report(analyticsRangeInput, analyticsOverview),
      async (request) => analytics.overview(requireActor(request), request.params.id, request.query),
    );
    app.get(
      '/api/v1/workspaces/:id/analytics/pages',
      report(analyticsRangeInput, analyticsPages),
      async (request) => analytics.pages(requireActor(request), request.params.id, request.query),
    );
    app.get(
      '/api/v1/workspaces/:id/analytics/searches',
      report(searchesReportInput, analyticsSearches),
      async (request) => analytics.searches(requireActor(request), request.params.id, request.query),
    );
  });
}
