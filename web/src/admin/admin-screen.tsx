import { lazy, Suspense } from 'react';
import { Link, NavLink, Navigate, useParams } from 'react-router';
import { useWorkspaces } from '../api/queries';
import { canAdminister, type Workspace } from '../api/types';
import { Loading } from '../ui/loading';
import { NotFoundPage } from '../ui/not-found-page';
import { ActivitySection } from './activity-section';
import { DomainSection } from './domain-section';
import { ExportSection } from './export-section';
import { GitSection } from './git/git-section';
import { ImportSection } from './import-section';
import { InvitationsSection } from './invitations-section';
import { MembersSection } from './members-section';
import { QualitySection } from './quality-section';
import { SettingsSection } from './settings-section';
import { ShareLinksSection } from './share-links-section';
import { VersionsSection } from './versions-section';
import '../styles/admin.css';

// The charts (visx) load only when Analytics is opened.
const AnalyticsSection = lazy(() => import('./analytics/analytics-section'));

/** A screen of workspace administration: its address under `/settings/w/<slug>/` and its name. */
interface AdminSection {
  id: string;
  label: string;
  Screen: React.ComponentType<{ workspace: Workspace }>;
}

const SECTIONS: readonly AdminSection[] = [
  { id: 'general', label: 'Settings', Screen: SettingsSection },
  { id: 'members', label: 'Members', Screen: MembersSection },
  { id: 'invitations', label: 'Invitations', Screen: InvitationsSection },
  { id: 'share-links', label: 'Share links', Screen: ShareLinksSection },
  { id: 'git', label: 'Git', Screen: GitSection },
  { id: 'versions', label: 'Versions', Screen: VersionsSection },
  { id: 'domain', label: 'Custom domain', Screen: DomainSection },
  { id: 'quality', label: 'Quality', Screen: QualitySection },
  { id: 'analytics', label: 'Analytics', Screen: AnalyticsSection },
  { id: 'import', label: 'Import', Screen: ImportSection },
  { id: 'export', label: 'Export', Screen: ExportSection },
  { id: 'activity', label: 'Activity', Screen: ActivitySection },
];

/** Shown, rather than controls the API would refuse, to a member who is not an admin. */
function NoAccess({ workspace }: { workspace: Workspace }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1>You don't have access</h1>
        <p>
          Only the admins of <strong>{workspace.name}</strong> can change its settings and members.
        </p>
        <p>
          <Link to={`/w/${workspace.slug}`}>Back to the pages</Link>
        </p>
      </div>
    </main>
  );
}

/**
 * `/settings/w/<slug>/<section>`: a workspace's administration, for its admins and Super
 * Admins. The sections are links, so each has its own deep link.
 */
export default function AdminScreen() {
  const { slug = '', section = '' } = useParams();
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Loading />;
  const workspace = workspaces.data?.find((w) => w.slug === slug);
  if (!workspace) return <NotFoundPage message="This workspace does not exist or you are not a member." />;
  if (!canAdminister(workspace.role)) return <NoAccess workspace={workspace} />;
  const current = SECTIONS.find((s) => s.id === section);
  if (!current) return <Navigate to={`/settings/w/${slug}/${SECTIONS[0]!.id}`} replace />;
  return (
    <div className="app-shell">
      <header className="topbar">
        <Link to={`/w/${slug}`} className="button ghost">
          ← Back to pages
        </Link>
        <span className="spacer" />
        <span className="topbar-title">{workspace.name}</span>
        <Link to="/settings/account" className="button ghost">
          Account
        </Link>
      </header>
      <div className="admin-body">
        <nav className="admin-nav" aria-label="Workspace administration">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <NavLink to={`/settings/w/${slug}/${s.id}`}>{s.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main className="admin-main">
          <h1>{current.label}</h1>
          <Suspense fallback={<Loading />}>
            <current.Screen workspace={workspace} />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
