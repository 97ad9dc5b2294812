import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

/**
 * What a repository function runs its statements on: the store's handle, or a transaction a
 * service opened so that several writes commit together.
 */
export type Queryable = Kysely<Database> | Transaction<Database>;
