/** What the account screens read: sessions, API keys and the onboarding checklist. */

/** GET /api/auth/sessions. */
export interface Session {
  id: string;
  device: string | null;
  ip: string | null;
  created_at: string;
  last_active_at: string;
  /** The session of this browser. */
  current: boolean;
}

export const API_KEY_SCOPES = ['read', 'write', 'delete', 'admin', 'admin:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** GET /api/v1/api-keys: never the key itself, only its prefix. */
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  /** Unix seconds, or null for a key that never expires. */
  expires_at: number | null;
  last_used_at: string | null;
  created_at: string;
}

/** POST /api/v1/api-keys and …/rotate: the full key, this once. */
export interface NewApiKey extends ApiKey {
  key: string;
}

export const ONBOARDING_STEPS = [
  'create_page',
  'invite_member',
  'connect_git',
  'publish_site',
  'create_api_key',
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** GET /api/v1/users/me/onboarding. */
export interface Onboarding {
  steps: Record<OnboardingStep, boolean>;
  dismissed: boolean;
  completed: boolean;
}
