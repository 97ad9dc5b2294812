/**
 * Who is acting, with no trace of the transport that carried the request.
 * Services take an Actor and decide with domain/policy.ts what it may do.
 */
export const API_KEY_SCOPES = ['read', 'write', 'delete', 'admin', 'admin:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export type ActorVia = 'jwt' | 'cookie' | 'api_key' | 'system';

export interface Actor {
  userId: string;
  orgId: string;
  /** API-key scopes; null means the full rights of the user's roles (a session). */
  scopes: readonly ApiKeyScope[] | null;
  via: ActorVia;
  isPlatformOwner: boolean;
  /** The session behind a JWT or cookie (absent for API keys and the system). */
  sessionId?: string;
  /**
   * The user's display name, when whoever built the actor read the user row anyway; with
   * `email` it names the author of the git commits the actor's writes make.
   */
  displayName?: string;
  /** The user's email, known under the same condition as `displayName`. */
  email?: string;
}

/** The CLI's administrative commands act as this actor; policy lets it do anything. */
export const SYSTEM_ACTOR: Actor = Object.freeze({
  userId: 'system',
  orgId: 'system',
  scopes: null,
  via: 'system',
  isPlatformOwner: true,
});

export const isSystem = (actor: Actor): boolean => actor.via === 'system';
