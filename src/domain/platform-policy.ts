import { AppError } from '../errors.js';
import type { Actor } from './actor.js';
import type { Operation } from './policy.js';

/**
 * `/api/v1/admin/*` (Cloud): the platform owner only. Anyone else gets 404, so the
 * administration does not even show that it exists. The owner's API keys need `admin`
 * (or `admin:read` for reads); a session has every right. The system actor may do anything.
 */
export function requirePlatformOwner(actor: Actor, op: Operation): void {
  if (actor.via === 'system') return;
  if (!actor.isPlatformOwner) throw new AppError('NOT_FOUND', 'Not found');
  if (actor.scopes === null || actor.scopes.includes('admin')) return;
  if (op === 'read' && actor.scopes.includes('admin:read')) return;
  throw new AppError(
    'FORBIDDEN',
    `This API key needs the admin${op === 'read' ? ' or admin:read' : ''} scope`,
  );
}
