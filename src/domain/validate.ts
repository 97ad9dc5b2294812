import type { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * The 400 VALIDATION_ERROR for a failed parse: the first offending field in
 * `details.field` (and every issue in `details.issues`). Shared by `parseInput`
 * and the HTTP routes' schema validation, so both refuse input the same way.
 */
export function validationError(error: z.ZodError): AppError {
  const issues = error.issues.flatMap((issue) => {
    const at = issue.path.map(String);
    // A strict schema's unknown keys: one issue per key, naming it as the field.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...at, key].join('.'), message: `Unknown field "${key}"` }));
    }
    return [{ field: at.join('.') || 'body', message: issue.message }];
  });
  const first = issues[0] ?? { field: 'body', message: 'Invalid input' };
  return new AppError('VALIDATION_ERROR', `${first.field}: ${first.message}`, {
    details: { field: first.field, issues },
  });
}

/** Parses input with a zod schema (absent input is `{}`) or throws `validationError`'s 400. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(result.error);
}
