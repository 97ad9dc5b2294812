import { z } from 'zod';
import { record } from './shape.js';

const person = record({ id: z.string(), name: z.string(), email: z.string() });

/** Who opened the caller's session as them, when the platform owner did. */
export const impersonationStatus = record({ impersonated_by: person.nullable(), user: person });
export type ImpersonationStatus = z.infer<typeof impersonationStatus>;
