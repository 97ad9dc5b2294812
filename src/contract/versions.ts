import { z } from 'zod';
import { listOf, record, timestamp } from './shape.js';

/** A documentation version: a frozen copy of the published pages. */
export const versionRecord = record({
  slug: z.string(),
  name: z.string(),
  is_default: z.boolean(),
  page_count: z.number().int(),
  created_at: timestamp,
});
export type Version = z.infer<typeof versionRecord>;

export const versionList = listOf(versionRecord);

/** One version with the pages it froze. */
export const versionDetail = versionRecord.extend({
  pages: z.array(
    record({ path: z.string(), page_id: z.string(), content_hash: z.string(), title: z.string() }),
  ),
});
export type VersionDetail = z.infer<typeof versionDetail>;
