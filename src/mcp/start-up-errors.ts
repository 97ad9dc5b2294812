import { AppError } from '../errors.js';

/**
 * The refusals `folio mcp` prints before it serves, worded the same whether it runs the
 * services in-process or bridges to a server: an agent's user sees one sentence, not a stack.
 */
export const invalidApiKey = (): AppError =>
  new AppError('UNAUTHORIZED', 'the API key is invalid or expired');

/** A workspace slug the key cannot read is reported as unknown (a hidden workspace is NOT_FOUND). */
export const unknownWorkspace = (slug: string): AppError =>
  new AppError('NOT_FOUND', `no workspace "${slug}" that this API key can read`);
