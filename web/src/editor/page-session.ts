import { api, ApiError, contentUrl, NetworkError } from '../api/client';
import type { Page } from '../../../src/contract/pages';
import { clearDraft, saveDraft } from './drafts';
import { rawBase, rawFor, type RawBase } from './raw-text';

export type SaveStatus = 'saved' | 'dirty' | 'saving';

/** What the writer must decide after someone else changed the page. */
export interface Conflict {
  /** Their text, line-normalised, and the stored body it came from. */
  theirs: RawBase;
  mine: string;
  /** The text both started from, when known (for a three-way merge). */
  base: string | null;
}

export interface SessionState {
  status: SaveStatus;
  /** Why the last save failed, while it is being retried. */
  problem: string | null;
  conflict: Conflict | null;
  /** Someone else saved the page while the writer has unsaved edits. */
  remoteChanged: boolean;
}

/** How the session reads and replaces the editor's text. */
export interface EditorAccess {
  getDoc(): string;
  /** Replaces the text with minimal changes, so the cursor stays where it was. */
  setDoc(doc: string): void;
}

const AUTOSAVE_MS = 1000;
const RETRY_MIN_MS = 2000;
const RETRY_MAX_MS = 30_000;

/**
 * The save loop of one open page. The server's stored body is the truth: a save
 * sends it back unchanged except where the writer typed (see raw-text.ts), with
 * `lastKnownHash`, about a second after typing stops; "Saved" only once the
 * server answered. A failed save keeps the text as a local draft and retries;
 * a 409 becomes a conflict for the merge view. Nothing is ever sent unless the
 * text differs from what the server holds.
 */
export class PageSession {
  private base: RawBase;
  private state: SessionState = { status: 'saved', problem: null, conflict: null, remoteChanged: false };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private retryMs = RETRY_MIN_MS;
  private saving: Promise<void> | null = null;
  private disposed = false;
  /** In a co-editing room: the room saves, this session tracks the state and keeps the draft. */
  private room: { onResolved: () => void } | null = null;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly slug: string,
    private readonly path: string,
    page: Page,
    private readonly editor: EditorAccess,
    private readonly onChange: (state: SessionState) => void,
  ) {
    this.base = rawBase(page.content, page.content_hash);
  }

  /** The editor text of the page as loaded. */
  get initialDoc(): string {
    return this.base.doc;
  }

  get baseHash(): string {
    return this.base.hash;
  }

  /** The editor text as the server last stored it. */
  get savedDoc(): string {
    return this.base.doc;
  }

  /**
   * The page joined its co-editing room: saving is the room's from now on.
   * `onResolved` tells the room when the writer settled a conflict.
   */
  enterRoom(savedText: string, hash: string, onResolved: () => void): void {
    this.room = { onResolved };
    clearTimeout(this.timer);
    this.roomSaved(savedText, hash);
  }

  /** The room saved `savedText` (stored with `hash`). */
  roomSaved(savedText: string, hash: string): void {
    if (hash !== this.base.hash) this.base = rawBase(savedText, hash);
    const current = this.editor.getDoc();
    if (current === this.base.doc) clearDraft(this.slug, this.path);
    const clearsConflict = this.state.conflict !== null && current === this.base.doc;
    this.set({
      status: current === this.base.doc ? 'saved' : 'dirty',
      problem: null,
      ...(clearsConflict ? { conflict: null } : {}),
    });
  }

  /** The room closed (page moved or deleted elsewhere): the text stays here as a draft. */
  leaveRoom(problem: string): void {
    this.room = null;
    const doc = this.editor.getDoc();
    if (doc !== this.base.doc) saveDraft(this.slug, this.path, doc, this.base.hash);
    this.set({ problem });
    // Saving page by page would recreate a deleted page or write beside a moved one.
    this.closedForGood = true;
  }

  private closedForGood = false;

  /** The room refused something (a viewer typing): shown as the save problem. */
  roomProblem(problem: string): void {
    this.set({ problem });
  }

  /** The editor's text now. */
  currentDoc(): string {
    return this.editor.getDoc();
  }

  /** Puts a kept draft back into the editor; it is saved like any edit. */
  restore(doc: string): void {
    this.editor.setDoc(doc);
  }

  private set(patch: Partial<SessionState>) {
    this.state = { ...this.state, ...patch };
    if (!this.disposed) this.onChange(this.state);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    if (this.disposed) return;
    this.timer = setTimeout(() => void this.save(), ms);
  }

  /** Called on every edit: marks the page unsaved and restarts the autosave pause. */
  edited(): void {
    if (this.room || this.closedForGood) {
      const saved = this.editor.getDoc() === this.base.doc;
      this.set({ status: saved ? 'saved' : 'dirty' });
      // The local draft covers the room's unsaved window (and a server that went away).
      clearTimeout(this.draftTimer);
      if (!saved) {
        this.draftTimer = setTimeout(
          () => saveDraft(this.slug, this.path, this.editor.getDoc(), this.base.hash),
          500,
        );
      }
      return;
    }
    if (this.editor.getDoc() === this.base.doc) {
      clearTimeout(this.timer);
      if (this.state.status !== 'saving') this.set({ status: 'saved' });
      return;
    }
    if (this.state.status !== 'saving') this.set({ status: 'dirty' });
    if (!this.state.conflict) this.schedule(AUTOSAVE_MS);
  }

  /** Saves now (Ctrl/Cmd+S, leaving the page, the network coming back). */
  save(): Promise<void> {
    clearTimeout(this.timer);
    if (this.room || this.closedForGood) return Promise.resolve();
    if (this.state.conflict) return Promise.resolve();
    if (this.saving) return this.saving.then(() => this.save());
    this.saving = this.saveOnce().finally(() => {
      this.saving = null;
    });
    return this.saving;
  }

  private async saveOnce(): Promise<void> {
    const doc = this.editor.getDoc();
    if (doc === this.base.doc) {
      clearDraft(this.slug, this.path);
      this.set({ status: 'saved', problem: null });
      return;
    }
    const body = rawFor(this.base, doc);
    saveDraft(this.slug, this.path, doc, this.base.hash);
    this.set({ status: 'saving' });
    try {
      const page = await api<Page>('PUT', contentUrl(this.slug, this.path), {
        body,
        lastKnownHash: this.base.hash,
      });
      this.base = rawBase(page.content, page.content_hash);
      this.retryMs = RETRY_MIN_MS;
      const current = this.editor.getDoc();
      if (current === this.base.doc) clearDraft(this.slug, this.path);
      this.set({ status: current === this.base.doc ? 'saved' : 'dirty', problem: null });
      if (current !== this.base.doc) this.schedule(AUTOSAVE_MS);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        await this.openConflict(this.editor.getDoc());
        return;
      }
      this.set({ status: 'dirty', problem: problemText(error) });
      if (error instanceof NetworkError || (error instanceof ApiError && retryable(error.status))) {
        this.schedule(this.retryMs);
        this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
      }
    }
  }

  private async fetchTheirs(): Promise<RawBase> {
    const page = await api<Page>('GET', contentUrl(this.slug, this.path));
    return rawBase(page.content, page.content_hash);
  }

  /** Shows the merge view for `mine` against the server's current text. */
  async openConflict(mine: string, base: string | null = this.base.doc): Promise<void> {
    clearTimeout(this.timer);
    saveDraft(this.slug, this.path, mine, this.base.hash);
    try {
      const theirs = await this.fetchTheirs();
      this.set({ status: 'dirty', problem: null, remoteChanged: false, conflict: { theirs, mine, base } });
    } catch (error) {
      this.set({ status: 'dirty', problem: problemText(error) });
      this.schedule(this.retryMs);
    }
  }

  /**
   * Ends a conflict with `text` as the page: stored against their version, so
   * only what differs from theirs is written.
   */
  resolve(text: string): void {
    const conflict = this.state.conflict;
    if (!conflict) return;
    this.base = conflict.theirs;
    this.set({ conflict: null });
    this.editor.setDoc(text);
    if (this.room) return this.room.onResolved();
    void this.save();
  }

  /** A `page-updated` event for this page: reload in place, or flag it when the writer has edits. */
  async remoteUpdated(): Promise<void> {
    // In a room, outside changes arrive as edits.
    if (this.room || this.closedForGood) return;
    if (this.saving) await this.saving;
    const theirs = await this.fetchTheirs().catch(() => null);
    if (!theirs || theirs.hash === this.base.hash || this.state.conflict) return;
    if (this.editor.getDoc() === this.base.doc) {
      this.base = theirs;
      this.editor.setDoc(theirs.doc);
      this.set({ status: 'saved', remoteChanged: false });
    } else {
      this.set({ remoteChanged: true });
    }
  }

  /** Leaving the page: saves what is unsaved; a failure leaves the draft behind. */
  dispose(): void {
    clearTimeout(this.draftTimer);
    if (this.room && this.state.status !== 'saved') {
      saveDraft(this.slug, this.path, this.editor.getDoc(), this.base.hash);
    }
    if (this.state.status !== 'saved' && !this.state.conflict) void this.save();
    clearTimeout(this.timer);
    this.disposed = true;
  }
}

const retryable = (status: number) => status >= 500 || status === 429 || status === 408;

function problemText(error: unknown): string {
  if (error instanceof NetworkError) {
    return 'You are offline. Your changes are kept on this device and will be saved when the server is back.';
  }
  if (error instanceof ApiError && retryable(error.status)) {
    return 'Saving failed. Your changes are kept on this device; retrying…';
  }
  return error instanceof ApiError ? `Could not save: ${error.message}` : 'Could not save.';
}
