import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { FormError } from '../ui/form-error';
import { ONBOARDING_STEPS, type Onboarding, type OnboardingStep } from './account-types';
import { accountKeys } from '../api/query-keys';

const STEP_TEXT: Record<OnboardingStep, string> = {
  create_page: 'Write a page',
  invite_member: 'Invite someone to a workspace',
  connect_git: 'Connect a git remote',
  publish_site: 'Publish the site',
  create_api_key: 'Create an API key',
};

/**
 * A new account's first steps (`/api/v1/users/me/onboarding`), ticked as they are done;
 * hidden once dismissed or complete.
 */
export function OnboardingChecklist() {
  const url = '/api/v1/users/me/onboarding';
  const queryClient = useQueryClient();
  const onboarding = useQuery({
    queryKey: accountKeys.onboarding(),
    queryFn: () => api<Onboarding>('GET', url),
  });
  const dismiss = useMutation({
    mutationFn: () => api<Onboarding>('PATCH', url, { dismissed: true }),
    onSuccess: (state) => queryClient.setQueryData(accountKeys.onboarding(), state),
  });
  const state = onboarding.data;
  if (!state || state.dismissed || state.completed) return null;
  const done = ONBOARDING_STEPS.filter((step) => state.steps[step]).length;
  return (
    <section className="account-section onboarding" aria-labelledby="onboarding-heading">
      <h2 id="onboarding-heading">Getting started</h2>
      <p className="hint">
        {done} of {ONBOARDING_STEPS.length} done
      </p>
      <ul className="checklist">
        {ONBOARDING_STEPS.map((step) => (
          <li key={step} className={state.steps[step] ? 'done' : undefined}>
            <span aria-hidden="true">{state.steps[step] ? '✓' : '○'}</span> {STEP_TEXT[step]}
            <span className="visually-hidden">{state.steps[step] ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button small"
        onClick={() => dismiss.mutate()}
        disabled={dismiss.isPending}
      >
        Dismiss
      </button>
      <FormError error={dismiss.error} />
    </section>
  );
}
