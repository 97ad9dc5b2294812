import { z } from 'zod';
import { ROLES } from '../domain/policy.js';
import { listOf, record, timestamp } from './shape.js';

/** A pending invitation; `token` only in the answer to create, and only when no mail was sent. */
export const invitationRecord = record({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  expires_at: timestamp,
  created_at: timestamp,
  accept_url: z.string(),
  token: z.string().optional(),
});
export type Invitation = z.infer<typeof invitationRecord>;

export const invitationList = listOf(invitationRecord);
