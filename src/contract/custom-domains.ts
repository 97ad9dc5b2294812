import { z } from 'zod';
import { listOf, record, timestamp } from './shape.js';

/** The DNS TXT record that proves a domain is the workspace owner's. */
const verification = record({ type: z.literal('TXT'), name: z.string(), value: z.string() });

/** A workspace's custom domain. */
export const customDomainRecord = record({
  domain: z.string(),
  status: z.enum(['pending', 'verified']),
  verification,
  verified_at: timestamp.nullable(),
});
export type CustomDomain = z.infer<typeof customDomainRecord>;

/** `GET /api/custom-domains/allowed`: a TLS terminator may ask for a certificate (404 otherwise). */
export const domainAllowed = record({
  domain: z.string(),
  allowed: z.boolean().describe('Always true: a domain Folio does not serve answers 404'),
});

/** A custom domain as the platform owner lists them, with the workspace and organization it serves. */
export const adminDomainRecord = record({
  domain: z.string(),
  status: z.string(),
  verified_at: timestamp.nullable(),
  checked_at: timestamp.nullable(),
  created_at: timestamp,
  workspace_id: z.string(),
  workspace: z.string().describe("The workspace's slug"),
  org: z.string().describe("The organization's handle"),
});
export type AdminDomain = z.infer<typeof adminDomainRecord>;

/** `POST /api/v1/admin/domains/:domain/verify`: the domain after looking its TXT record up again. */
export const adminDomainChecked = adminDomainRecord.extend({ verification });

export const adminDomainList = listOf(adminDomainRecord);
