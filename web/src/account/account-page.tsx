import { Link } from 'react-router';
import { useMe, useProviders } from '../api/queries';
import { BillingLink } from '../billing/billing-link';
import { Loading } from '../ui/loading';
import { SignOutButton } from '../workspace/sign-out-button';
import { ApiKeysSection } from './api-keys-section';
import { IdentitiesSection } from './identities-section';
import { OnboardingChecklist } from './onboarding-checklist';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { SessionsSection } from './sessions-section';
import { WorkspaceSettingsSection } from './workspace-settings-section';
import { YourDataSection } from './your-data-section';

/**
 * `/settings/account` (and `/settings`): who is signed in and how: first steps for a new
 * account, the profile, links to the settings of the workspaces the user administers, the
 * password, sessions, API keys, passkeys and linked sign-in providers.
 */
export function AccountPage() {
  const me = useMe();
  const providers = useProviders();
  if (me.isPending || providers.isPending) return <Loading />;
  return (
    <div className="app-shell">
      <header className="topbar">
        <Link to="/" className="button ghost">
          ← Back to docs
        </Link>
        <span className="spacer" />
        <BillingLink />
        <SignOutButton />
      </header>
      <main className="account-page">
        <h1>Account</h1>
        <p className="account-who">
          <strong>{me.data?.name}</strong>
          <span className="hint">
            {me.data?.email}
            {me.data?.handle && ` · @${me.data.handle}`}
          </span>
        </p>
        <OnboardingChecklist />
        <ProfileSection />
        <WorkspaceSettingsSection />
        <PasswordSection />
        <SessionsSection />
        <ApiKeysSection />
        {providers.data?.passkeys && <PasskeysSection />}
        <IdentitiesSection />
        <YourDataSection />
      </main>
    </div>
  );
}
