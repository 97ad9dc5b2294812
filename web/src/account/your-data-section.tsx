import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { useMe } from '../api/queries';
import { useImpersonation } from '../platform/platform-api';
import { Field } from '../ui/field';
import { FormError } from '../ui/form-error';

/**
 * Account → Your data (Cloud edition only): a download of everything Folio holds about the
 * user (one a day), deleting the account with its password, and for the platform owner the
 * way into the platform administration.
 */
export function YourDataSection() {
  const cloud = useImpersonation();
  const me = useMe();
  const [password, setPassword] = useState('');
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => api<void>('DELETE', '/api/v1/users/me', password ? { password } : {}),
    onSuccess: () => window.location.assign('/login'),
  });
  if (!cloud.data) return null;
  const owner = (me.data as { platform_owner?: boolean } | null | undefined)?.platform_owner === true;
  return (
    <section className="account-section" aria-labelledby="data-heading">
      <h2 id="data-heading">Your data</h2>
      <p>
        Download everything Folio holds about you: profile, memberships, sessions, API keys, passkeys,
        comments, activity and invitations you sent, as a ZIP of JSON files. One download a day.
      </p>
      <div className="item-actions">
        <a className="button" href="/api/v1/users/me/export" download>
          Download my data
        </a>
        {owner && (
          <Link className="button" to="/settings/platform/orgs">
            Platform administration
          </Link>
        )}
      </div>
      <h3>Delete your account</h3>
      <p className="hint">
        Your sign-in methods, sessions, API keys and personal details are removed. Pages and comments you
        wrote stay with their organizations, shown as written by “Deleted user”.
      </p>
      {!asking ? (
        <button type="button" className="button danger-outline" onClick={() => setAsking(true)}>
          Delete my account…
        </button>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            remove.mutate();
          }}
        >
          <Field
            label="Password"
            type="password"
            autoComplete="current-password"
            hint="Accounts without a password: sign in again first, then delete within five minutes."
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <div className="item-actions">
            <button type="button" className="button" onClick={() => setAsking(false)}>
              Keep my account
            </button>
            <button type="submit" className="button danger-outline" disabled={remove.isPending}>
              Delete my account for good
            </button>
          </div>
          <FormError error={remove.error} />
        </form>
      )}
    </section>
  );
}
