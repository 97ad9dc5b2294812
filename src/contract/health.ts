import { z } from 'zod';
import { record } from './shape.js';

/** `GET /api/health`: the process answers. */
export const liveness = record({ status: z.literal('ok'), version: z.string() });

const check = z
  .looseObject({ status: z.enum(['ok', 'warn', 'fail']) })
  .describe('One check, with figures of its own');

/** `GET /api/ready` (200 ready, 503 not yet or no longer). */
export const readiness = record({
  status: z.enum(['ready', 'unavailable']),
  checks: record({
    database: check,
    git: check,
    commits: check,
    outbox: check,
    disk: check,
    reconciling: check,
  }),
});
export type Readiness = z.infer<typeof readiness>;
