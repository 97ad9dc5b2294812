import { z } from 'zod';
import { listOf, record, timestamp } from './shape.js';

/** One entry of a workspace's activity feed, newest first. */
export const activityRecord = record({
  id: z.string(),
  action: z.string(),
  path: z.string().nullable(),
  page_id: z.string().nullable(),
  actor: z.string().nullable().describe("The acting user's id; null for the system, disk or git"),
  actor_name: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: timestamp,
});
export type ActivityRecord = z.infer<typeof activityRecord>;

export const activityList = listOf(activityRecord);
