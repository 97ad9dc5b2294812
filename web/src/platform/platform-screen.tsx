import { Link, NavLink, Navigate, useParams } from 'react-router';
import { useMe } from '../api/queries';
import { Loading } from '../ui/loading';
import { NotFoundPage } from '../ui/not-found-page';
import { AuditSection } from './audit-section';
import { DomainsSection } from './domains-section';
import { GrowthSection, HealthSection } from './health-section';
import { OrgsSection } from './orgs-section';
import { UsersSection } from './users-section';
import { useImpersonation } from './platform-api';
import '../styles/admin.css';
import '../styles/platform.css';

const SECTIONS = [
  { id: 'orgs', label: 'Organizations', Screen: OrgsSection },
  { id: 'users', label: 'Users', Screen: UsersSection },
  { id: 'audit-log', label: 'Audit log', Screen: AuditSection },
  { id: 'domains', label: 'Custom domains', Screen: DomainsSection },
  { id: 'health', label: 'System health', Screen: HealthSection },
  { id: 'growth', label: 'Growth', Screen: GrowthSection },
] as const;

/**
 * `/settings/platform/<section>`: the platform owner's administration of a Cloud instance.
 * Anyone else (and any Community instance) sees the app's not-found page, as the API
 * answers them 404.
 */
export default function PlatformScreen() {
  const { section = '' } = useParams();
  const me = useMe();
  const cloud = useImpersonation();
  if (me.isPending || cloud.isPending) return <Loading />;
  const isOwner = (me.data as { platform_owner?: boolean } | null | undefined)?.platform_owner === true;
  if (!isOwner || !cloud.data) return <NotFoundPage />;
  const current = SECTIONS.find((s) => s.id === section);
  if (!current) return <Navigate to={`/settings/platform/${SECTIONS[0].id}`} replace />;
  return (
    <div className="app-shell">
      <header className="topbar">
        <Link to="/" className="button ghost">
          ← Back to docs
        </Link>
        <span className="spacer" />
        <span className="topbar-title">Platform administration</span>
      </header>
      <div className="admin-body">
        <nav className="admin-nav" aria-label="Platform administration">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <NavLink to={`/settings/platform/${s.id}`}>{s.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main className="admin-main">
          <h1>{current.label}</h1>
          <current.Screen />
        </main>
      </div>
    </div>
  );
}
