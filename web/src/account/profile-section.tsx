import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api } from '../api/client';
import { meQuery, useMe } from '../api/queries';
import type { Me } from '../../../src/contract/auth';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';

/**
 * Account → Profile: the name others see on comments, presence and activity. The email
 * and @handle are shown, not edited: the email signs in and the handle is how mentions
 * already written find the person.
 */
export function ProfileSection() {
  const me = useMe();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (name: string) => api<Me>('PATCH', '/api/auth/me', { name }),
    onSuccess: (user) => queryClient.setQueryData(meQuery.queryKey, user),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(String(new FormData(event.currentTarget).get('name') ?? ''));
  };
  if (!me.data) return null;
  return (
    <form className="account-section" onSubmit={submit} aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <div className="inline-form">
        <Field
          label="Name"
          name="name"
          required
          maxLength={200}
          autoComplete="name"
          defaultValue={me.data.name}
          hint={`Signs in as ${me.data.email}${me.data.handle ? `; mentioned as @${me.data.handle}` : ''}.`}
        />
        <button type="submit" className="button primary" disabled={save.isPending}>
          Save name
        </button>
      </div>
      {save.isSuccess && (
        <p className="hint" role="status">
          Saved.
        </p>
      )}
      <FormError error={save.error} />
    </form>
  );
}
