import { Navigate, Route, Routes, useLocation } from 'react-router';
import { lazy, Suspense, type ReactNode } from 'react';
import { AccountPage } from './account/account-page';
import { useMe, useWorkspaces } from './api/queries';
import { ForgotPasswordPage } from './auth/forgot-password-page';
import { JoinPage } from './auth/join-page';
import { LoginPage } from './auth/login-page';
import { OidcClaimPage } from './auth/oidc-claim-page';
import { RegisterPage } from './auth/register-page';
import { ResetPasswordPage } from './auth/reset-password-page';
import { NotFoundPage } from './ui/not-found-page';
import { Loading } from './ui/loading';
import { WorkspaceScreen } from './workspace/workspace-screen';
import { ImpersonationBanner } from './platform/impersonation-banner';

// Administration is a chunk of its own: most visits never open it.
const AdminScreen = lazy(() => import('./admin/admin-screen'));
// Change requests, likewise.
const ChangeRequestsScreen = lazy(() => import('./change-requests/change-requests-screen'));
const BillingPage = lazy(() => import('./billing/billing-page'));
const PlatformScreen = lazy(() => import('./platform/platform-screen'));

/** Renders its children for a signed-in user; sends anyone else to sign in, then back here. */
function RequireSession({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading />;
  if (!me.data) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?next=${next}`} replace />;
  }
  return (
    <>
      <ImpersonationBanner />
      {children}
    </>
  );
}

/** `/`: the first workspace of a signed-in user. */
function Home() {
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Loading />;
  const first = workspaces.data?.[0];
  if (!first) return <NotFoundPage message="You are not a member of any workspace yet." />;
  return <Navigate to={`/w/${first.slug}`} replace />;
}

/** The app's deep links. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/login/oidc" element={<OidcClaimPage />} />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route
        path="/invite/:token"
        element={
          <RequireSession>
            <JoinPage kind="invitation" />
          </RequireSession>
        }
      />
      <Route
        path="/join/:token"
        element={
          <RequireSession>
            <JoinPage kind="share-link" />
          </RequireSession>
        }
      />
      <Route
        path="/"
        element={
          <RequireSession>
            <Home />
          </RequireSession>
        }
      />
      <Route
        path="/w/:slug/change-requests/*"
        element={
          <RequireSession>
            <Suspense fallback={<Loading />}>
              <ChangeRequestsScreen />
            </Suspense>
          </RequireSession>
        }
      />
      <Route
        path="/w/:slug/*"
        element={
          <RequireSession>
            <WorkspaceScreen />
          </RequireSession>
        }
      />
      {/* The settings start at the account, which leads on to each workspace's. */}
      <Route path="/settings" element={<Navigate to="/settings/account" replace />} />
      <Route
        path="/settings/account"
        element={
          <RequireSession>
            <AccountPage />
          </RequireSession>
        }
      />
      <Route
        path="/settings/w/:slug/:section?"
        element={
          <RequireSession>
            <Suspense fallback={<Loading />}>
              <AdminScreen />
            </Suspense>
          </RequireSession>
        }
      />
      <Route
        path="/settings/billing"
        element={
          <RequireSession>
            <Suspense fallback={<Loading />}>
              <BillingPage />
            </Suspense>
          </RequireSession>
        }
      />
      <Route
        path="/settings/platform/:section?"
        element={
          <RequireSession>
            <Suspense fallback={<Loading />}>
              <PlatformScreen />
            </Suspense>
          </RequireSession>
        }
      />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
