import type { Queryable } from './queryable.js';

/*
 * The `settings` column of `workspaces`: a JSON object of the API's settings
 * keys, plus any key other features stored. This file is the only place the column is
 * parsed or written; services/workspaces/settings.ts turns the stored object into the
 * settings with their defaults.
 */

/** The stored settings object; unreadable JSON, or JSON that is not an object, counts as nothing stored. */
export function parseStoredSettings(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The workspace's stored settings object, or undefined when there is no such workspace. */
export async function readStoredSettings(
  db: Queryable,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const row = await db.selectFrom('workspaces').select('settings').where('id', '=', id).executeTakeFirst();
  return row ? parseStoredSettings(row.settings) : undefined;
}

/**
 * Replaces the stored settings object (and sets `updated_at` when given); answers the JSON
 * written, which is what a row read afterwards holds.
 */
export async function writeStoredSettings(
  db: Queryable,
  id: string,
  settings: Record<string, unknown>,
  options: { updatedAt?: string } = {},
): Promise<string> {
  const json = JSON.stringify(settings);
  await db
    .updateTable('workspaces')
    .set({ settings: json, ...(options.updatedAt !== undefined ? { updated_at: options.updatedAt } : {}) })
    .where('id', '=', id)
    .execute();
  return json;
}
