/** The shapes of the API answers the app reads. */

export type Role = 'superadmin' | 'admin' | 'editor' | 'commenter' | 'viewer';

export interface Workspace {
  id: string;
  name: string;
  slug: string;
  role: Role;
  public_site?: boolean;
}

export interface TreeNode {
  type: 'folder' | 'page';
  name: string;
  path: string;
  title: string;
  page_id: string | null;
  sort_order: number;
  children: TreeNode[];
}

export interface Page {
  page_id: string;
  path: string;
  title: string;
  description: string;
  content: string;
  content_hash: string;
  frontmatter_hash: string;
  tags: string[];
  status: string;
  created_at: string;
  updated_at: string;
}

export interface List<T> {
  data: T[];
  next_cursor: string | null;
}

/** Roles that may change pages. */
export const canEdit = (role: Role | undefined): boolean =>
  role === 'editor' || role === 'admin' || role === 'superadmin';

/** One entry of the activity feed. */
export interface ActivityRecord {
  id: string;
  action: string;
  path: string | null;
  page_id: string | null;
  actor: string | null;
  actor_name: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

/** Roles that may administer a workspace: settings, members, sharing. */
export const canAdminister = (role: Role | undefined): boolean => role === 'admin' || role === 'superadmin';

/** How each role is named on screen. */
export const ROLE_NAMES: Readonly<Record<Role, string>> = {
  viewer: 'Viewer',
  commenter: 'Commenter',
  editor: 'Editor',
  admin: 'Admin',
  superadmin: 'Super Admin',
};

/** The published site's themes (the server's src/render/themes.ts). */
export const THEMES = ['default', 'dark', 'forest', 'rose', 'amber', 'minimal', 'corporate'] as const;

/** GET and PUT …/admin/settings. */
export interface WorkspaceSettings {
  public_site: boolean;
  theme: string;
  site_title: string;
  site_description: string;
  frontmatter_mode: 'strict' | 'lenient';
  default_version: string | null;
  /** The published site's "Edit this page" link for readers: a URL with {path}. */
  edit_url: string | null;
  show_last_updated_author: boolean;
  /** Proposed from the connected git remote (GitHub, GitLab, Gitea, Forgejo); read-only. */
  suggested_edit_url?: string | null;
  nav_source?: NavigationInfo['nav_source'];
  /** Whether the editor's rich paste uploads remote images (else they stay links). */
  paste_remote_images?: boolean;
}

/** GET …/admin/navigation: whose navigation the published site follows. */
export interface NavigationInfo {
  nav_source: 'auto' | 'folio' | 'mkdocs' | 'docusaurus' | 'gitbook';
  following: 'folio' | 'mkdocs' | 'docusaurus' | 'gitbook';
  detected: Array<{ source: string; file: string }>;
  findings: string[];
}

/** POST …/imports and GET …/imports/:job_id. */
export interface ImportJob {
  id: string;
  status: 'reading' | 'importing' | 'done' | 'failed';
  progress: { done: number; total: number };
  report: {
    from: string;
    commit: string | null;
    converted: Array<{ source: string; path: string }>;
    kept: Array<{ source: string; path: string; note: string }>;
    dropped: Array<{ source: string; reason: string }>;
  } | null;
  error: { error: string; message: string } | null;
  created_at: string;
}

/** Roles that may add comments and edit or delete their own. */
export const canComment = (role: Role | undefined): boolean => role !== undefined && role !== 'viewer';

/** A documentation version: a frozen copy of the published pages. */
export interface Version {
  slug: string;
  name: string;
  is_default: boolean;
  page_count: number;
  created_at: string;
}

/** One finding of the quality report on one page. */
export interface QualityIssue {
  type: string;
  severity: 'error' | 'warning';
  path: string;
  message: string;
  target?: string;
  /** 1-based line in the page's body. */
  line?: number;
}

/** GET …/quality. */
export interface QualityReport {
  score: number;
  page_count: number;
  average_readability: number;
  issue_counts: Record<string, number>;
  pages: {
    path: string;
    title: string;
    status: string;
    word_count: number;
    readability: number;
    score: number;
    issues: QualityIssue[];
  }[];
}
