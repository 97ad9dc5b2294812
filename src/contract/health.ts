import { z } from 'zod';
import { record } from './shape.js';

/** `GET /api/health`: the process answers. */
export const liveness = record({ status: z.literal('ok'), version: z.string() });

/** One check of readiness, with figures of its own (a version, a backlog, free bytes…). */
export const readinessCheck = z
  .looseObject({
    status: z.enum(['ok', 'warn', 'fail']),
    error: z.string().optional().describe('Why the check fails or warns'),
  })
  .describe('One check, with figures of its own');
const check = readinessCheck;

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
