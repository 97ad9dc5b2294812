import type { z } from 'zod';
import { AppError } from '../errors.js';

/**
 * Parses input with a zod schema or throws 400 VALIDATION_ERROR naming the
 * first offending field in `details.field` (and every issue in `details.issues`).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'body',
    message: issue.message,
  }));
  const first = issues[0] ?? { field: 'body', message: 'Invalid input' };
  throw new AppError('VALIDATION_ERROR', `${first.field}: ${first.message}`, {
    details: { field: first.field, issues },
  });
}
