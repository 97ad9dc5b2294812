import { z } from 'zod';
import { API_KEY_SCOPES } from '../domain/actor.js';
import { listOf, record, timestamp } from './shape.js';

/** An API key as listed: never the key itself, only its prefix. */
export const apiKeyRecord = record({
  id: z.string(),
  name: z.string(),
  org: z.string().describe('Handle of the organization whose workspaces the key acts in'),
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  expires_at: z.number().int().nullable().describe('Unix seconds; null for a key that never expires'),
  last_used_at: timestamp.nullable(),
  created_at: timestamp,
});
export type ApiKey = z.infer<typeof apiKeyRecord>;

export const apiKeyList = listOf(apiKeyRecord);

/** Create and rotate: the record with the full `svc_live_…` key, shown this once. */
export const newApiKey = apiKeyRecord.extend({ key: z.string() });
export type NewApiKey = z.infer<typeof newApiKey>;
