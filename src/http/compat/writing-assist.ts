import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { olderWritingAssistInput } from '../../services/ai/index.js';
import type { Services } from '../../services/index.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { deprecatedRoute } from './layout.js';

/**
 * Layout B's writing assist, `Folio-Layout: B` on `POST /api/v1/ai/writing-assist`:
 * `{ workspace_id, operation, content }` answering `{ result }`, over the same AI service.
 */
export function writingAssistCompatRoutes(services: Services) {
  const { ai } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const d = deprecatedRoute('/api/v1/ai/writing-assist', 'Layout B: writing assist by operation', {
      headerVariant: true,
    });
    app.post(
      '/api/v1/ai/writing-assist',
      {
        onSend: d.onSend,
        constraints: { layout: 'B' },
        config: { rateLimit: 'ai' },
        preValidation: requireSignedIn,
        schema: { ...d.schema, body: olderWritingAssistInput },
      },
      async (request) => ({ result: (await ai.writingAssist(requireActor(request), request.body)).result }),
    );
  };
}
