import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { validationError } from '../domain/validate.js';

/**
 * Validates a route's `body`, `querystring` or `params` with its zod schema; the handler
 * then receives the parsed value. Absent input is `{}` and a failure is the same 400 as
 * `parseInput`'s (Fastify passes it through to the error handler as it is).
 */
const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data ?? {});
    return result.success ? { value: result.data } : { error: validationError(result.error) };
  };

/**
 * Response schemas document the API and never shape a response: a zod parse would drop
 * unknown keys and reorder the rest, so responses are serialised exactly as without one.
 */
const serializerCompiler = () => (data: unknown) => JSON.stringify(data);

/** Makes routes take zod schemas for their input and (for the document) their responses. */
export function installRouteSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}
