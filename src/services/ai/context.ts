/**
 * Grounding for documentation chat: which workspace, which pages, and how
 * much of their text goes to the AI provider. Only pages the caller can read
 * are ever sent, since the provider is a third party: the workspace passes
 * `access.require(..., CAN.read)`, pages come from that workspace's search
 * (confined to it), restricted pages are dropped, and the current text is
 * read through the pages service as the caller.
 */
import type { ChatInput, ChatSource } from '../../ai/prompts.js';
import type { Actor } from '../../domain/actor.js';
import { CAN } from '../../domain/policy.js';
import { AppError, invalid } from '../../errors.js';
import { queryTerms } from '../../search/query-text.js';
import type { SearchHit, SearchIndex } from '../../search/search-index.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import type { PagesService } from '../pages/pages.js';
import type { WorkspacesService } from '../workspaces/workspaces.js';

/** At most this many pages ground one answer. */
export const MAX_SOURCES = 5;
/** Characters of one page sent as its excerpt. */
export const MAX_EXCERPT_CHARS = 4_000;
/** Characters of all excerpts together: keeps the prompt within small models' context windows. */
export const MAX_CONTEXT_CHARS = 16_000;
/** Below this much room left, another excerpt would be too short to help. */
const MIN_EXCERPT_CHARS = 200;
/** Per-term searches of the fallback; more adds queries, not relevance. */
const MAX_FALLBACK_TERMS = 6;
/** Earlier user turns searched when the last question finds nothing ("and its defaults?"). */
const EARLIER_TURNS = 2;

/** A page an answer drew on, as the client shows it. */
export interface ChatSourceRef {
  page_id: string;
  path: string;
  title: string;
}

export interface ChatGrounding {
  workspace: WorkspaceRow;
  /** What goes into the prompt. */
  excerpts: ChatSource[];
  /** The same pages, for the response. */
  sources: ChatSourceRef[];
}

/** Builds the grounding of one chat turn; see the file header. */
export interface ChatContextBuilder {
  build(actor: Actor, input: ChatInput): Promise<ChatGrounding>;
}

export interface ChatContextDeps {
  access: AccessService;
  workspaces: Pick<WorkspacesService, 'list'>;
  search: Pick<SearchIndex, 'query'>;
  pages: Pick<PagesService, 'read'>;
}

// Words that match nearly every page: searching for them alone would pick pages at random.
const STOPWORDS = new Set(
  (
    'about above after again all also and any are because been before being below between both but can ' +
    'could did does doing done down during each few for from further had has have having her here hers how ' +
    'into its just more most must not now off once only other our out over own same she should some such ' +
    'than that the their them then there these they this those through too under until use used using very ' +
    'was way were what when where which while who whom why will with would you your yours want need get ' +
    'make work works please tell explain show know documentation docs page pages'
  ).split(' '),
);

/** A query's words worth searching for alone: no stopwords or very short words, longest (most specific) first. */
export function significantTerms(text: string): string[] {
  return queryTerms(text)
    .filter((term) => term.length >= 3 && !STOPWORDS.has(term))
    .sort((a, b) => b.length - a.length)
    .slice(0, MAX_FALLBACK_TERMS);
}

/**
 * At most `max` characters of a page body. A long page is cut at a line
 * break, and starts at the paragraph holding the first match of `terms` when
 * that match lies beyond the cut, so the excerpt shows the relevant part.
 */
export function excerptOf(body: string, terms: readonly string[], max = MAX_EXCERPT_CHARS): string {
  const text = body.trim();
  if (text.length <= max) return text;
  // Room for the two ellipsis lines, so the result never exceeds `max`.
  max -= 4;
  const lower = text.toLowerCase();
  const hits = terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
  const first = hits.length > 0 ? Math.min(...hits) : 0;
  let start = 0;
  if (first > max / 2) {
    const paragraph = text.lastIndexOf('\n\n', first);
    start = paragraph >= 0 && first - paragraph < max / 2 ? paragraph + 2 : Math.max(0, first - 200);
  }
  const window = text.slice(start, start + max);
  const lineEnd = window.lastIndexOf('\n');
  const cut = start + max < text.length && lineEnd > max / 2 ? window.slice(0, lineEnd) : window;
  return `${start > 0 ? '…\n' : ''}${cut.trimEnd()}${start + cut.length < text.length ? '\n…' : ''}`;
}

/** The chat grounding over the workspace's search index and the pages service. */
export function createChatContext(deps: ChatContextDeps): ChatContextBuilder {
  const { access, search, pages, workspaces } = deps;

  /**
   * The workspace named by `workspace_id` (id or slug), else the caller's only
   * readable one. Several readable workspaces and no choice is a 400 rather
   * than a guess: answering from the wrong documentation would mislead.
   */
  async function resolveWorkspace(actor: Actor, ref: string | undefined): Promise<WorkspaceRow> {
    if (ref !== undefined) return (await access.require(actor, ref, CAN.read)).workspace;
    // The same list as GET /api/v1/workspaces, so "readable" has one definition; two rows
    // are enough to tell "only one" from "several".
    const candidates = actor.via === 'system' ? [] : (await workspaces.list(actor, { limit: 2 })).data;
    const only = candidates.length === 1 ? candidates[0] : undefined;
    if (!only) {
      throw invalid(
        'workspace_id',
        candidates.length === 0
          ? 'workspace_id is required: you cannot read any workspace'
          : 'workspace_id is required when you can read more than one workspace',
      );
    }
    // Re-checked through the one policy path, so scopes apply exactly as for an explicit id.
    return (await access.require(actor, only.id, CAN.read)).workspace;
  }

  async function hits(workspaceId: string, q: string): Promise<SearchHit[]> {
    return (await search.query({ workspaceId, q, limit: MAX_SOURCES })).results;
  }

  /**
   * Pages for one question: the whole question (all its words must match);
   * failing that its significant words together; failing that each of them
   * alone, ranked by how many words a page matched and how high.
   */
  async function searchQuestion(workspaceId: string, question: string): Promise<SearchHit[]> {
    const whole = await hits(workspaceId, question);
    if (whole.length > 0) return whole;
    const terms = significantTerms(question);
    if (terms.length === 0) return [];
    if (terms.length > 1) {
      const together = await hits(workspaceId, terms.join(' '));
      if (together.length > 0) return together;
    }
    const merged = new Map<string, { hit: SearchHit; weight: number }>();
    for (const term of terms) {
      (await hits(workspaceId, term)).forEach((hit, rank) => {
        const entry = merged.get(hit.page_id) ?? { hit, weight: 0 };
        entry.weight += 1 / (1 + rank);
        merged.set(hit.page_id, entry);
      });
    }
    return [...merged.values()]
      .sort((a, b) => b.weight - a.weight || a.hit.path.localeCompare(b.hit.path))
      .slice(0, MAX_SOURCES)
      .map((entry) => entry.hit);
  }

  /**
   * Page text as sent to the provider: each page read through the pages
   * service as this actor (so its own visibility rules and reconciliation of
   * edits on disk apply), restricted pages never, even for admins.
   */
  async function excerpts(actor: Actor, workspace: WorkspaceRow, found: SearchHit[], terms: string[]) {
    const result: { excerpts: ChatSource[]; sources: ChatSourceRef[] } = { excerpts: [], sources: [] };
    let budget = MAX_CONTEXT_CHARS;
    for (const hit of found) {
      if (budget < MIN_EXCERPT_CHARS) break;
      // The index may briefly lag a delete or a move: such a page is skipped, not an error.
      const page = await pages.read(actor, workspace.id, hit.path).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
        throw err;
      });
      if (!page || page.restricted || page.content.trim() === '') continue;
      const excerpt = excerptOf(page.content, terms, Math.min(MAX_EXCERPT_CHARS, budget));
      budget -= excerpt.length;
      result.excerpts.push({ path: page.path, title: page.title, excerpt });
      result.sources.push({ page_id: page.page_id, path: page.path, title: page.title });
    }
    return result;
  }

  return {
    async build(actor, input) {
      const workspace = await resolveWorkspace(actor, input.workspace_id);
      const questions = input.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .reverse()
        .slice(0, 1 + EARLIER_TURNS);
      let found: SearchHit[] = [];
      let asked = '';
      for (const question of questions) {
        found = await searchQuestion(workspace.id, question);
        asked = question;
        if (found.length > 0) break;
      }
      const terms = queryTerms(asked).filter((term) => term.length >= 3);
      return { workspace, ...(await excerpts(actor, workspace, found, terms)) };
    },
  };
}
