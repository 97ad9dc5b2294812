import { z } from 'zod';

/**
 * Answers that are not JSON records. A 204 is `z.null()`, which the document renders as a
 * response with no content; files, streams and text name their content type.
 */
export const noContent = z.null().describe('No content');

/** A response of another content type than JSON: a file, a stream, text or HTML. */
export function otherContent(contentType: string, description: string) {
  return {
    description,
    content: { [contentType]: { schema: z.string().describe(description) } },
  };
}

/** A ZIP download. */
export const zipFile = (description: string) => otherContent('application/zip', description);

/** The one-sentence answer of routes that only confirm. */
export const messageAnswer = z.looseObject({ message: z.string() });
