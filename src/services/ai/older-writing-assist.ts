import { z } from 'zod';

/** Layout B's operations and the current action each one is. */
const OPERATIONS = {
  rewrite: 'improve',
  improve: 'improve',
  shorten: 'summarize',
  expand: 'expand',
} as const;

/**
 * Layout B's writing-assist body, `{ workspace_id, operation, content }`, as the current
 * service's input (`action`, `content`, `workspace_id`): the caller needs the editor role
 * in that workspace, as today.
 */
export const olderWritingAssistInput = z
  .object({
    workspace_id: z.string({ error: 'workspace_id is required' }).min(1).max(200),
    operation: z.enum(Object.keys(OPERATIONS) as [keyof typeof OPERATIONS], {
      error: `operation must be one of ${Object.keys(OPERATIONS).join(', ')}`,
    }),
    content: z.string().min(1).max(100_000),
  })
  .transform(({ workspace_id, operation, content }) => ({
    action: OPERATIONS[operation],
    content,
    workspace_id,
  }));
