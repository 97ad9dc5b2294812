import { z } from 'zod';
import type { Readable } from 'node:stream';
import { openUpload, storeUpload } from '../../content/upload-files.js';
import { checkZipBomb, type SniffedType, sniffType } from '../../content/upload-sniff.js';
import { workspaceDir } from '../../content/workspace-meta.js';
import { UPLOADS_DIR, WorkspaceFiles } from '../../content/workspace-files.js';
import type { Actor } from '../../domain/actor.js';
import { normalizeUploadName } from '../../domain/paths.js';
import { CAN } from '../../domain/policy.js';
import { forbidden, invalid, notFound, unauthorized } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { WorkspaceLock } from '../../git/lock.js';
import type { Store } from '../../store/database.js';
import type { WorkspaceRow } from '../../store/schema.js';
import type { AccessService } from '../access.js';
import { actorIdOf, record } from '../activity.js';
import type { Clock } from '../../lib/clock.js';
import type { TargetRules } from '../webhooks/index.js';
import { readSettings } from '../workspaces/settings.js';
import { fetchRemoteFile } from './remote-image.js';

/** `POST …/uploads/from-url`: the image's http(s) URL. */
export const fromUrlInput = z
  .object({ url: z.string().trim().min(1, 'url is required').max(2000, 'url is at most 2000 characters') })
  .strict();

/** No upload is larger than the 10 MB request limit. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** How long an upload from a URL may take, redirects included. */
export const REMOTE_FETCH_TIMEOUT_MS = 10_000;

/** A file as an adapter received it; `read` is called only once the caller may upload. */
export interface IncomingFile {
  /** The client's name for it: used for the stored name only, never for its type. */
  filename: string;
  read(): Promise<Buffer>;
}

/** The 201 body of an upload. */
export interface StoredUpload {
  /** Workspace-relative path, as a page links to it. */
  path: string;
  /** Where the API serves it. */
  url: string;
  filename: string;
  size: number;
  content_type: string;
}

/** An upload ready to be sent: the type comes from its bytes, as it did when it was stored. */
export interface ServedUpload {
  stream: Readable;
  size: number;
  contentType: string;
  /** Images and PDFs open in the browser; anything else downloads. */
  disposition: 'inline' | 'attachment';
  filename: string;
}

// Client extensions kept when the bytes agree with them, so `notes.md` stays `notes.md`;
// any other name gets the extension of what the bytes are.
const KEPT_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'application/zip': ['zip', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub'],
  'text/plain': [
    'txt',
    'md',
    'markdown',
    'csv',
    'tsv',
    'log',
    'json',
    'yaml',
    'yml',
    'toml',
    'ini',
    'cfg',
    'conf',
  ],
};

const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'application/pdf',
]);

/** The stored name: the client's name made safe, with an extension that tells the truth. */
export function uploadName(clientName: string, type: SniffedType): string {
  const safe = normalizeUploadName(clientName);
  const dot = safe.lastIndexOf('.');
  const stem = dot > 0 ? safe.slice(0, dot) : safe;
  const ext = dot > 0 ? safe.slice(dot + 1) : '';
  const kept = KEPT_EXTENSIONS[type.mime]?.includes(ext) ? ext : type.ext;
  return `${stem}.${kept}`;
}

/** The Content-Type header for a sniffed type (text is UTF-8, or it would not be text). */
const contentTypeOf = (type: SniffedType | null): string =>
  !type ? 'application/octet-stream' : type.mime === 'text/plain' ? 'text/plain; charset=utf-8' : type.mime;

/**
 * How to send an upload, decided from its first bytes (never its name): the Content-Type
 * and whether browsers may show it inline. Shared with the published site, which serves
 * uploads of published pages (and, for versions, from git) without this service's checks.
 */
export function describeUpload(head: Buffer): Pick<ServedUpload, 'contentType' | 'disposition'> {
  const type = sniffType(head);
  return {
    contentType: contentTypeOf(type),
    disposition: type && INLINE_TYPES.has(type.mime) ? 'inline' : 'attachment',
  };
}

/**
 * Uploaded assets under `uploads/` in the workspace tree.
 * A file's type is always decided from its bytes, both when it is stored and when it is
 * served, so neither a misleading name nor a file added through git can make Folio serve
 * HTML or script under the workspace's origin.
 */
export function createUploads(deps: {
  dataDir: string;
  store: Store;
  access: AccessService;
  clock: Clock;
  /** The workspace lock, so a git merge never runs while an upload is being placed. */
  lock?: WorkspaceLock;
  /** `upload-created` goes out after the file is stored (git auto-commit listens). */
  events?: EventBus;
  /** An upload a published page of a public site references, or null (the published site's rule). */
  publicUpload?: (workspaceIdOrSlug: string, filename: string) => Promise<ServedUpload | null>;
  /** The outbound URL rules of uploads from a URL (the webhooks' SSRF rules). */
  remoteRules?: TargetRules;
  remoteTimeoutMs?: number;
}) {
  const filesOf = (workspaceId: string) => new WorkspaceFiles(workspaceDir(deps.dataDir, workspaceId));

  /** Opens an upload for a reader of the workspace; NOT_FOUND when there is no such file. */
  async function open(actor: Actor, workspaceIdOrSlug: string, filename: string): Promise<ServedUpload> {
    const { workspace } = await deps.access.require(actor, workspaceIdOrSlug, CAN.read);
    const opened = await openUpload(filesOf(workspace.id), filename);
    if (!opened) throw notFound('Upload');
    return {
      stream: opened.handle.createReadStream({ start: 0, autoClose: true }),
      size: opened.size,
      ...describeUpload(opened.head),
      filename,
    };
  }

  return {
    /**
     * Stores a file for an editor of the workspace: PNG, JPEG, GIF, WebP, SVG, PDF, plain
     * text or ZIP (ZIPs only after the archive-bomb check), under a unique safe name. The
     * bytes are read only after the permission check. Records `upload_created` activity.
     */
    async upload(actor: Actor, workspaceIdOrSlug: string, file: IncomingFile): Promise<StoredUpload> {
      const { workspace } = await deps.access.require(actor, workspaceIdOrSlug, CAN.edit);
      return store(actor, workspace, file, false);
    },

    /**
     * Fetches an image from an http(s) URL and stores it like an upload, for an editor of a
     * workspace whose `paste_remote_images` setting is on (FORBIDDEN otherwise). The URL is
     * SSRF-checked as webhook receivers are; the size limit holds while the bytes arrive;
     * only images (decided from the bytes) are kept; the name comes from the URL's path.
     */
    async uploadFromUrl(actor: Actor, workspaceIdOrSlug: string, url: string): Promise<StoredUpload> {
      const { workspace } = await deps.access.require(actor, workspaceIdOrSlug, CAN.edit);
      if (!readSettings(workspace, { frontmatterMode: 'lenient' }).paste_remote_images)
        throw forbidden('This workspace keeps pasted remote images as links (setting paste_remote_images)');
      const fetched = await fetchRemoteFile(url, {
        rules: deps.remoteRules ?? { allowPrivateHosts: false },
        maxBytes: MAX_UPLOAD_BYTES,
        timeoutMs: deps.remoteTimeoutMs ?? REMOTE_FETCH_TIMEOUT_MS,
      });
      const file = { filename: fetched.filename, read: () => Promise.resolve(fetched.data) };
      return store(actor, workspace, file, true);
    },

    /**
     * The API's `GET …/uploads/:filename`: a signed-in caller reads as a member; without
     * one, only an upload referenced by a published page of a public site is served, and
     * anything else is UNAUTHORIZED.
     */
    async read(actor: Actor | null, workspaceIdOrSlug: string, filename: string): Promise<ServedUpload> {
      if (actor) return open(actor, workspaceIdOrSlug, filename);
      const file = await deps.publicUpload?.(workspaceIdOrSlug, filename);
      if (!file) throw unauthorized();
      return file;
    },

    open,
  };

  /** Checks, names, places and records a file for a workspace the actor may edit. */
  async function store(
    actor: Actor,
    workspace: WorkspaceRow,
    file: IncomingFile,
    imagesOnly: boolean,
  ): Promise<StoredUpload> {
    const data = await file.read();
    if (data.length === 0) throw invalid('file', 'The file is empty');
    if (data.length > MAX_UPLOAD_BYTES) throw invalid('file', 'The file exceeds the 10 MB limit');
    const type = sniffType(data);
    if (!type && imagesOnly) throw invalid('url', 'The URL is not an image: PNG, JPEG, GIF, WebP or SVG');
    if (!type) {
      throw invalid(
        'file',
        'Unsupported file type: upload PNG, JPEG, GIF, WebP, SVG, PDF, plain text or ZIP',
      );
    }
    if (imagesOnly && !type.mime.startsWith('image/'))
      throw invalid(
        'url',
        `The URL is not an image (its bytes are ${type.mime}): PNG, JPEG, GIF, WebP or SVG`,
      );
    if (type.mime === 'application/zip') await checkZipBomb(data);

    const place = () => storeUpload(filesOf(workspace.id), uploadName(file.filename, type), data);
    const name = await (deps.lock ? deps.lock.run(workspace.id, place) : place());
    const stored: StoredUpload = {
      path: `${UPLOADS_DIR}/${name}`,
      url: `/api/v1/content/${encodeURIComponent(workspace.slug)}/${UPLOADS_DIR}/${encodeURIComponent(name)}`,
      filename: name,
      size: data.length,
      content_type: type.mime,
    };
    await record(deps.store.db, {
      workspaceId: workspace.id,
      action: 'upload_created',
      path: stored.path,
      actorId: actorIdOf(actor),
      details: { filename: name, size: stored.size, content_type: stored.content_type },
      at: deps.clock.now().toISOString(),
    });
    deps.events?.emit('upload-created', {
      workspace_id: workspace.id,
      path: stored.path,
      actor: actorIdOf(actor),
    });
    return stored;
  }
}
