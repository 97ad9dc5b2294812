import type { FastifyInstance, FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
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

/**
 * The same compilers as Fastify's schema controller factories. Given at construction, they
 * keep Fastify from loading its default ones (Ajv and fast-json-stringify, about 440 KB of
 * code evaluated at every start) only to have them replaced by `installRouteSchemas`.
 */
export const routeSchemaCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
  // Fastify types these factories with Ajv's and fast-json-stringify's own compiler types.
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** Makes routes take zod schemas for their input and (for the document) their responses. */
export function installRouteSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}
