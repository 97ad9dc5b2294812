import { z } from 'zod';
import { ROLES } from '../domain/policy.js';
import { listOf, record, timestamp } from './shape.js';

/** A share link as admins see it; `token` and `url` only in the answer to create. */
export const shareLinkRecord = record({
  id: z.string(),
  role: z.enum(ROLES),
  expires_at: timestamp.nullable(),
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  created_at: timestamp,
  token: z.string().optional(),
  url: z.string().optional().describe('The /join/<token> link to hand out'),
});
export type ShareLink = z.infer<typeof shareLinkRecord>;

export const shareLinkList = listOf(shareLinkRecord);
