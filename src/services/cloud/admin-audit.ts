import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import * as audit from '../../store/repositories/platform-audit.js';
import type { Queryable } from '../../store/repositories/queryable.js';

// Monotonic: entries written within one millisecond still list in the order they happened.
const nextId = monotonicFactory();

const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** `limit` and `cursor` of every platform-administration list. */
export const adminPageInput = {
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1)
    .max(100)
    .default(20)
    .describe('Most entries (default 20).'),
  cursor: z
    .string()
    .regex(ULID_RE, 'cursor is not one this API gave out')
    .optional()
    .describe('next_cursor from a previous call, for the next page.'),
};

export const listAuditInput = z.object({
  ...adminPageInput,
  target: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('Only entries about this organization or user id.'),
});

/** One entry of the platform owner's audit log. */
export interface AuditEntry {
  actorId: string;
  action: string;
  targetType: 'org' | 'user' | 'domain';
  targetId: string;
  details?: Record<string, unknown>;
  at: string;
}

/** Appends an entry, inside the caller's transaction when it passes one, so the action and its record commit together. */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await audit.insertAuditEntry(db, {
    id: nextId(),
    actor_id: entry.actorId,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    details: JSON.stringify(entry.details ?? {}),
    created_at: entry.at,
  });
}

/** Newest first; `next_cursor` is the last id shown while older entries remain. */
export async function listAudit(db: Queryable, input: z.infer<typeof listAuditInput>) {
  const rows = await audit.listAuditEntries(db, {
    limit: input.limit + 1,
    ...(input.cursor ? { before: input.cursor } : {}),
    ...(input.target ? { targetId: input.target } : {}),
  });
  const data = rows.slice(0, input.limit).map((r) => ({
    id: r.id,
    action: r.action,
    actor: { id: r.actor_id, name: r.actor_name },
    target: { type: r.target_type, id: r.target_id },
    details: JSON.parse(r.details) as Record<string, unknown>,
    created_at: r.created_at,
  }));
  return { data, next_cursor: rows.length > input.limit ? (data[data.length - 1]?.id ?? null) : null };
}
