import { z } from 'zod';
import { ROLES } from '../domain/policy.js';
import { listOf, record, timestamp } from './shape.js';

const role = z.enum(ROLES);

/** A workspace member as its admins list them. */
export const memberRecord = record({
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  handle: z.string(),
  role,
  joined_at: timestamp,
});
export type Member = z.infer<typeof memberRecord>;

export const memberList = listOf(memberRecord);

/** Who is in the workspace, as its members see each other (for mentions). */
export const personRecord = record({ user_id: z.string(), name: z.string(), handle: z.string() });
export type Person = z.infer<typeof personRecord>;

export const peopleList = listOf(personRecord);

/** The workspace an invitation or a share link let the caller join, and with which role. */
export const joinedWorkspace = record({
  workspace_id: z.string(),
  workspace: record({ id: z.string(), slug: z.string(), name: z.string() }),
  role,
});
export type JoinedWorkspace = z.infer<typeof joinedWorkspace>;
