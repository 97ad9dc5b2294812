import type { Queryable } from './queryable.js';

/**
 * The workspace's published pages with the name of the user who last saved each; `name`
 * is null where no user is recorded (an edit that came through git) or the user is gone.
 */
export async function listPublishedPathsWithEditorName(
  db: Queryable,
  workspaceId: string,
): Promise<Array<{ path: string; name: string | null }>> {
  return db
    .selectFrom('pages')
    .leftJoin('users', 'users.id', 'pages.updated_by')
    .select(['pages.path', 'users.name'])
    .where('pages.workspace_id', '=', workspaceId)
    .where('pages.status', '=', 'published')
    .execute();
}
