import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import type { List } from '../api/types';
import { FormError } from '../ui/form-error';
import { Loading } from '../ui/loading';
import { relativeTime } from '../ui/relative-time';
import { SignOutButton } from '../workspace/sign-out-button';
import type { Session } from '../../../src/contract/auth';
import { deviceName } from './device-name';
import { accountKeys } from '../api/query-keys';

/** Account → Sessions: where this account is signed in, and signing out of all of them. */
export function SessionsSection() {
  const sessions = useQuery({
    queryKey: accountKeys.sessions(),
    queryFn: () => api<List<Session>>('GET', '/api/auth/sessions').then((r) => r.data),
  });
  return (
    <section className="account-section" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      <p className="hint">
        Browsers and apps signed in to this account. Signing out ends all of them, here too.
      </p>
      {sessions.isPending && <Loading label="Loading the sessions…" />}
      <FormError error={sessions.error} />
      {sessions.data && (
        <ul className="item-list" aria-label="Signed-in sessions">
          {sessions.data.map((session) => (
            <li key={session.id} className="item">
              <div className="item-text">
                <strong title={session.device ?? undefined}>
                  {deviceName(session.device)} {session.current && <span className="badge">This device</span>}
                </strong>
                <span className="hint">
                  {session.ip ?? 'address unknown'} · last active {relativeTime(session.last_active_at)} ·
                  signed in {relativeTime(session.created_at)}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="item-actions">
        <SignOutButton className="danger-outline" label="Sign out everywhere" />
      </div>
    </section>
  );
}
