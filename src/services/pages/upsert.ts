import type { Actor } from '../../domain/actor.js';
import { AppError } from '../../errors.js';
import type { PageObject } from './page-object.js';
import type { CreatePageInput, UpdatePageInput } from './page-inputs.js';

/** The page writes an upsert is made of. */
export interface PageWrites {
  read(actor: Actor, workspace: string, path: string): Promise<PageObject>;
  create(actor: Actor, workspace: string, path: string, input: CreatePageInput): Promise<PageObject>;
  update(
    actor: Actor,
    workspace: string,
    path: string,
    input: UpdatePageInput,
  ): Promise<{ page: PageObject; created: boolean }>;
}

/**
 * Writes a page whether or not it exists (the API's upsert pattern): creates it, or,
 * when a page is already at `path`, reads its current hash and updates it with that
 * hash, replacing the body and setting the title (and description, tags and status
 * when given). Each step checks permissions and takes the workspace lock on its own,
 * so a change between the read and the update is still refused as CONFLICT.
 */
export async function upsertPage(
  pages: PageWrites,
  actor: Actor,
  workspace: string,
  path: string,
  input: CreatePageInput,
): Promise<{ page: PageObject; created: boolean }> {
  try {
    return { page: await pages.create(actor, workspace, path, input), created: true };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error;
  }
  const current = await pages.read(actor, workspace, path);
  const { page } = await pages.update(actor, workspace, path, {
    body: input.body,
    lastKnownHash: current.content_hash,
    frontmatter: {
      title: input.title,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.tags ? { tags: input.tags } : {}),
      ...(input.publish !== undefined ? { status: input.publish ? 'published' : 'draft' } : {}),
    },
  });
  return { page, created: false };
}
