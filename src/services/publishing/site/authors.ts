/**
 * Who last changed each published page, for "Last updated … by …" (names only). A change
 * made in Folio records its author on the page row (the same person Folio commits it
 * under); a change that arrived through git has none there, and git's log answers. Both
 * are read once per state of the site (its fingerprint), for all pages at once.
 */
import { workspaceDir } from '../../../content/workspace-meta.js';
import { runGit } from '../../../git/git.js';
import { FOLIO_IDENTITY } from '../../../git/repository.js';
import type { Store } from '../../../store/database.js';
import { listPublishedPathsWithEditorName } from '../../../store/repositories/pages.js';
import type { SiteState } from './context.js';

/** Commits of the log read for authors: pages untouched for longer show no name. */
const LOG_COMMITS = 5_000;
const RECORD = '\x1e';

/**
 * Path → last author's name, from git's log (newest first: the first name seen wins).
 * Folio's own commits (page ids it assigns, a crash's leftovers) change no one's text,
 * so the person before them is the author.
 */
async function gitAuthors(root: string): Promise<Map<string, string>> {
  const authors = new Map<string, string>();
  const log = await runGit(
    root,
    [
      '-c',
      'core.quotePath=false',
      'log',
      `--max-count=${LOG_COMMITS}`,
      '--no-renames',
      `--format=${RECORD}%ae%x00%an`,
      '--name-only',
    ],
    { allowFailure: true },
  ).catch(() => null);
  if (!log || log.code !== 0) return authors;
  for (const record of log.stdout.split(RECORD)) {
    const [who, ...files] = record.split('\n');
    const [email, name] = (who ?? '').split('\0');
    if (!name || email === FOLIO_IDENTITY.email) continue;
    for (const file of files) if (file && !authors.has(file)) authors.set(file, name);
  }
  return authors;
}

/** Builds the lookup; `dataDir` locates each workspace's repository. */
export function createPageAuthors(deps: { store: Store; dataDir: string }) {
  const byState = new WeakMap<SiteState, Promise<Map<string, string>>>();

  async function load(state: SiteState): Promise<Map<string, string>> {
    const rows = await listPublishedPathsWithEditorName(deps.store.db, state.workspace.id);
    const authors = new Map<string, string>();
    for (const row of rows) if (row.name) authors.set(row.path, row.name);
    if (rows.some((row) => !row.name)) {
      const fromGit = await gitAuthors(workspaceDir(deps.dataDir, state.workspace.id));
      for (const row of rows) {
        const name = fromGit.get(row.path);
        if (!row.name && name) authors.set(row.path, name);
      }
    }
    return authors;
  }

  return {
    /** The name of whoever last changed the live page at `path`, or null when unknown. */
    async of(state: SiteState, path: string): Promise<string | null> {
      let authors = byState.get(state);
      if (!authors) {
        authors = load(state);
        byState.set(state, authors);
        authors.catch(() => byState.delete(state));
      }
      return (await authors).get(path) ?? null;
    },
  };
}

export type PageAuthors = ReturnType<typeof createPageAuthors>;
