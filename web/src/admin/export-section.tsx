import type { Workspace } from '../api/types';

/**
 * The published site as a ZIP of static files (GET …/export), to host anywhere. A plain
 * link: the browser sends the session cookie and saves the file the server names.
 */
export function ExportSection({ workspace }: { workspace: Workspace }) {
  return (
    <section className="account-section" aria-labelledby="export-heading">
      <h2 id="export-heading">Static site</h2>
      <p>
        Every published page as HTML, with the theme's stylesheet and the uploads the pages use, ready for any
        static host or to open from disk. Pages still in draft are left out.
      </p>
      <div className="item-actions">
        <a className="button primary" href={`/api/v1/workspaces/${workspace.id}/export`} download>
          Download the site as a ZIP
        </a>
      </div>
    </section>
  );
}
