import { z } from 'zod';
import type { Actor } from '../../domain/actor.js';
import { requireScope } from '../../domain/policy.js';
import { unauthorized } from '../../errors.js';
import type { Store } from '../../store/database.js';
import { userHasApiKey } from '../../store/repositories/api-keys.js';
import { userHasInvited } from '../../store/repositories/invitations.js';
import type { Queryable } from '../../store/repositories/queryable.js';
import { findOnboarding, saveOnboarding } from '../../store/repositories/user-onboarding.js';
import type { Clock } from '../../lib/clock.js';

/** The checklist a new user works through, in the order the web app shows it. */
export const ONBOARDING_STEPS = [
  'create_page',
  'invite_member',
  'connect_git',
  'publish_site',
  'create_api_key',
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export interface OnboardingState {
  steps: Record<OnboardingStep, boolean>;
  dismissed: boolean;
  completed: boolean;
  updated_at: string | null;
}

export const patchOnboardingInput = z
  .object({
    steps: z
      .object(
        Object.fromEntries(ONBOARDING_STEPS.map((s) => [s, z.boolean()])) as Record<
          OnboardingStep,
          z.ZodBoolean
        >,
      )
      .partial()
      .strict(),
    dismissed: z.boolean(),
  })
  .partial()
  .strict();

/**
 * The per-user onboarding checklist. Steps
 * are stored as the web app marks them; two are also detected from what the
 * user has done (an API key exists, an invitation was sent), so the list is
 * right even when the app never reported them.
 */
export function createOnboarding(deps: { store: Store; clock: Clock }) {
  const db = deps.store.db;

  async function state(userId: string): Promise<OnboardingState> {
    const { row, stored } = await storedSteps(db, userId);
    const [apiKey, invitation] = await Promise.all([userHasApiKey(db, userId), userHasInvited(db, userId)]);
    const detected: Partial<Record<OnboardingStep, boolean>> = {
      create_api_key: apiKey,
      invite_member: invitation,
    };
    const steps = Object.fromEntries(
      ONBOARDING_STEPS.map((s) => [s, stored[s] === true || detected[s] === true]),
    ) as Record<OnboardingStep, boolean>;
    return {
      steps,
      dismissed: row?.dismissed === 1,
      completed: ONBOARDING_STEPS.every((s) => steps[s]),
      updated_at: row?.updated_at ?? null,
    };
  }

  const userOf = (actor: Actor): string => {
    if (actor.via === 'system') throw unauthorized('Onboarding belongs to a user');
    return actor.userId;
  };

  return {
    async get(actor: Actor): Promise<OnboardingState> {
      requireScope(actor, 'read');
      return state(userOf(actor));
    },

    /** Merges the given booleans into the stored checklist; absent keys keep their value. */
    async update(actor: Actor, input: z.infer<typeof patchOnboardingInput>): Promise<OnboardingState> {
      requireScope(actor, 'write');
      const userId = userOf(actor);
      const now = deps.clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        const { row, stored } = await storedSteps(trx, userId);
        const steps = JSON.stringify({ ...stored, ...input.steps });
        const dismissed = input.dismissed === undefined ? (row?.dismissed ?? 0) : input.dismissed ? 1 : 0;
        await saveOnboarding(trx, { user_id: userId, steps, dismissed, updated_at: now });
      });
      return state(userId);
    },
  };
}

/** The user's onboarding row and the steps it records; a damaged row counts as nothing done. */
async function storedSteps(db: Queryable, userId: string) {
  const row = await findOnboarding(db, userId);
  let stored: Record<string, unknown> = {};
  try {
    stored = row ? (JSON.parse(row.steps) as Record<string, unknown>) : {};
  } catch {
    stored = {};
  }
  return { row, stored };
}
