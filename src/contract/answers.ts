import { z } from 'zod';

/**
 * A 204. At run time `z.null()`, which the document renders as a response with no content;
 * typed as `undefined` so a handler answers it with `reply.code(204).send()`, no payload.
 */
export const noContent = z.null().describe('No content') as unknown as z.ZodType<undefined>;

/** A response of another content type than JSON: a file, a stream, text or HTML. */
export function otherContent(contentType: string, description: string, format?: 'binary') {
  const schema = z.string().describe(description);
  return {
    description,
    content: { [contentType]: { schema: format ? schema.meta({ format }) : schema } },
  };
}

/** A ZIP download. */
export const zipFile = (description: string) => otherContent('application/zip', description, 'binary');

/** The one-sentence answer of routes that only confirm. */
export const messageAnswer = z.looseObject({ message: z.string() });
