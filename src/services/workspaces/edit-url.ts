/**
 * The "Edit this page" link of the published site for readers who cannot edit in Folio:
 * the workspace setting `edit_url`, a template with `{path}` (the page file's path in the
 * repository), and the template Folio proposes from the connected remote.
 */

/** Whether `template` is an http(s) URL with `{path}` in it. */
export function isEditUrlTemplate(template: string): boolean {
  if (!template.includes('{path}')) return false;
  try {
    const url = new URL(template.replaceAll('{path}', 'page.md'));
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The template with `{path}` filled in, each segment of the path percent-encoded. */
export function fillEditUrl(template: string, pagePath: string): string {
  return template.replaceAll('{path}', pagePath.split('/').map(encodeURIComponent).join('/'));
}

/** Host, owner path and repository of a remote URL in any of git's forms; null when unreadable. */
function parseRemote(remote: string): { host: string; repo: string } | null {
  const trimmed = remote.trim();
  // scp-like: git@github.com:acme/docs.git
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(trimmed);
  let host: string;
  let repoPath: string;
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    host = scp[1]!;
    repoPath = scp[2]!;
  } else {
    try {
      const url = new URL(trimmed);
      if (!['https:', 'http:', 'ssh:', 'git:'].includes(url.protocol)) return null;
      // Never the credentials or a port of the remote: the link is for readers.
      host = url.hostname;
      repoPath = url.pathname;
    } catch {
      return null;
    }
  }
  const repo = repoPath.replace(/^\/+|\/+$/g, '').replace(/\.git$/i, '');
  if (!host || !/^[^/]+(?:\/[^/]+)+$/.test(repo)) return null;
  return { host: host.toLowerCase(), repo };
}

/**
 * The edit-URL template for a remote on GitHub, GitLab, Gitea or Forgejo (Codeberg), told
 * apart by host name; null for other hosts or unreadable remotes.
 */
export function suggestEditUrl(remote: string | null, branch: string): string | null {
  if (!remote) return null;
  const parsed = parseRemote(remote);
  if (!parsed) return null;
  const { host, repo } = parsed;
  const base = `https://${host}/${repo}`;
  const ref = branch.split('/').map(encodeURIComponent).join('/');
  if (host.includes('github')) return `${base}/edit/${ref}/{path}`;
  if (host.includes('gitlab')) return `${base}/-/edit/${ref}/{path}`;
  if (host.includes('gitea') || host.includes('forgejo') || host === 'codeberg.org')
    return `${base}/_edit/${ref}/{path}`;
  return null;
}
