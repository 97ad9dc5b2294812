import { Link, useParams } from 'react-router';
import { useWorkspaces } from '../api/queries';
import { Loading } from '../ui/loading';
import { NotFoundPage } from '../ui/not-found-page';
import { RequestDetail } from './request-detail';
import { RequestList } from './request-list';
import { RequestPageEditor } from './request-page-editor';
import '../styles/change-requests.css';

/**
 * `/w/<slug>/change-requests`: the workspace's change requests; `…/<n>` one request with
 * its diff, reviews, merge and close; `…/<n>/edit/<page path>` a page edited inside it.
 */
export default function ChangeRequestsScreen() {
  const { slug = '', '*': rest = '' } = useParams();
  const workspaces = useWorkspaces();
  if (workspaces.isPending) return <Loading />;
  const workspace = workspaces.data?.find((w) => w.slug === slug);
  if (!workspace) return <NotFoundPage message="This workspace does not exist or you are not a member." />;
  const match = /^(\d+)(?:\/edit\/(.+))?\/?$/.exec(rest);
  let body;
  if (rest === '') body = <RequestList workspace={workspace} />;
  else if (match && match[2])
    body = <RequestPageEditor workspace={workspace} number={Number(match[1])} path={match[2]} />;
  else if (match) body = <RequestDetail workspace={workspace} number={Number(match[1])} />;
  else return <NotFoundPage />;
  return (
    <div className="app-shell">
      <header className="topbar">
        <Link to={`/w/${slug}`} className="button ghost">
          ← Back to pages
        </Link>
        <span className="spacer" />
        <span className="topbar-title">{workspace.name}</span>
      </header>
      <main className="cr-main">{body}</main>
    </div>
  );
}
