import { z } from 'zod';

/**
 * The building blocks of the contract's records. Records are loose objects: the document
 * says a record may carry more fields, and the app's serializer never strips or reorders a
 * response to fit its schema (http/route-schemas.ts).
 */
// Typed as a plain object (no index signature) so a service's record interface checks against it.
export const record = <S extends z.ZodRawShape>(shape: S): z.ZodObject<S> =>
  z.looseObject(shape) as unknown as z.ZodObject<S>;

export const timestamp = z.string().describe('ISO 8601 date and time');

/** A page of a list: `{ data, next_cursor }`. */
export const listOf = <T extends z.ZodType>(item: T) =>
  record({ data: z.array(item), next_cursor: z.string().nullable() });

/** A person as other records name them. */
export const userRef = record({ id: z.string(), name: z.string(), handle: z.string() });
