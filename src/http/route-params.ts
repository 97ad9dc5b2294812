import { z } from 'zod';

/**
 * Path parameters, as route schemas: the router already matched them, so they never fail
 * to parse; they type the handler's `request.params` and name the parameters in the
 * OpenAPI document.
 */
const param = (description: string) => z.string().describe(description);

const workspaceId = param('The workspace id or its slug');

/** `:id` of `/api/v1/workspaces/:id/…`. */
export const workspaceParams = z.object({ id: workspaceId });

/** `:id` of a resource addressed by its own id (a comment, an API key, an identity, a template). */
export const idParams = z.object({ id: param('The id') });

/** `:workspace` of `/api/v1/content/:workspace/…`. */
export const contentParams = z.object({ workspace: workspaceId });

/** `:workspace/*` of a page: `*` is the page path, already percent-decoded by the router. */
export const pageParams = z.object({
  workspace: workspaceId,
  '*': param('The page path inside the workspace, e.g. guides/start.md'),
});
