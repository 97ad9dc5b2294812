/**
 * Which repository a URL names, whatever form it takes, so a push webhook's repository URLs
 * can be matched with a workspace's `git_remote`: `https://host/owner/repo(.git)`,
 * `ssh://git@host/owner/repo.git`, `git@host:owner/repo.git`, `file:///srv/repo.git` and a
 * plain local path all reduce to `host/path` (lowercased, no user, port, `.git` or slashes
 * at the ends; a local repository has an empty host).
 */
export function repositoryKey(url: string): string | null {
  const text = url.trim();
  if (text === '') return null;
  let host = '';
  let path: string;
  const scp = /^[^@/\s]+@([^:/\s]+):(.+)$/.exec(text);
  if (scp && !text.includes('://')) {
    host = scp[1] ?? '';
    path = scp[2] ?? '';
  } else {
    try {
      const parsed = new URL(text);
      if (parsed.protocol !== 'file:') host = parsed.hostname;
      path = decodeURIComponent(parsed.pathname);
    } catch {
      path = text;
    }
  }
  path = path
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/^\/+/, '');
  if (path === '') return null;
  // Hosts compare case-insensitively and so do GitHub's, GitLab's and Gitea's owner/repo paths;
  // a local path keeps its case (file systems may not fold it).
  return host ? `${host.toLowerCase()}/${path.toLowerCase()}` : `/${path}`;
}

const URL_FIELDS = [
  'clone_url',
  'git_url',
  'ssh_url',
  'html_url',
  'url',
  'git_http_url',
  'git_ssh_url',
  'http_url',
  'web_url',
  'homepage',
];

/**
 * The repository URLs a push payload names: GitHub's and Gitea's `repository.clone_url`,
 * `ssh_url`, `html_url`…, GitLab's `project.git_http_url`, `git_ssh_url`, `web_url`….
 */
export function payloadRepositoryUrls(payload: unknown): string[] {
  if (payload === null || typeof payload !== 'object') return [];
  const urls: string[] = [];
  for (const key of ['repository', 'project']) {
    const section = (payload as Record<string, unknown>)[key];
    if (section === null || typeof section !== 'object') continue;
    for (const field of URL_FIELDS) {
      const value = (section as Record<string, unknown>)[field];
      if (typeof value === 'string' && value.length <= 2048) urls.push(value);
    }
  }
  return urls;
}
