import type { ApiKey } from '../../../src/contract/api-keys';
import type { OnboardingState } from '../../../src/contract/settings';

/** What the account screens need beside the contract's records: the scopes offered and the onboarding checklist. */

/** The scopes a key may be given, in the order the form offers them. */
export const API_KEY_SCOPES = [
  'read',
  'write',
  'delete',
  'admin',
  'admin:read',
] as const satisfies readonly ApiKey['scopes'][number][];
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** GET /api/v1/users/me/onboarding. */
export type Onboarding = OnboardingState;
export type OnboardingStep = keyof OnboardingState['steps'];

/** The checklist's steps, in the order it shows them. */
export const ONBOARDING_STEPS = [
  'create_page',
  'invite_member',
  'connect_git',
  'publish_site',
  'create_api_key',
] as const satisfies readonly OnboardingStep[];
