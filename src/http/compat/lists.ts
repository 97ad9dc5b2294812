import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { markDeprecated, requestedLayout } from './layout.js';

/** Layout B's page size when the client names none; the current lists' maximum, 100, is B's too. */
export const LAYOUT_B_PAGE_SIZE = 20;

/** A current list page: the API's `{ data, next_cursor }`. */
interface ListPage {
  data: unknown[];
  next_cursor: string | null;
}

function isListPage(payload: unknown): payload is ListPage {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return false;
  const page = payload as Record<string, unknown>;
  return (
    Array.isArray(page.data) &&
    (typeof page.next_cursor === 'string' || page.next_cursor === null) &&
    !('has_more' in page)
  );
}

/** Whether a route's query schema pages by cursor: it takes both `limit` and `cursor`. */
function pagesByCursor(querystring: unknown): boolean {
  const shape = (querystring as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape !== undefined && 'limit' in shape && 'cursor' in shape;
}

/** The successor of a Layout B list: the same path, answered in the current shape. */
const samePath = (request: FastifyRequest) => request.url.split('?')[0] ?? request.url;

/** Before validation: B's default page size, and the deprecation headers (errors carry them too). */
async function layoutBPageSize(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (requestedLayout(request) !== 'B') return;
  markDeprecated(request, reply, samePath);
  const query = request.query as Record<string, unknown> | undefined;
  if (query && query.limit === undefined) query.limit = String(LAYOUT_B_PAGE_SIZE);
}

/** Before serialisation: `has_more`, true exactly while there is a `next_cursor`. */
async function layoutBHasMore(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (requestedLayout(request) !== 'B' || !isListPage(payload)) return payload;
  markDeprecated(request, reply, samePath);
  return { ...payload, has_more: payload.next_cursor !== null };
}

type Hooks<K extends 'preValidation' | 'preSerialization'> = NonNullable<RouteOptions[K]>;

function withHook<K extends 'preValidation' | 'preSerialization'>(
  existing: RouteOptions[K],
  hook: unknown,
): Hooks<K> {
  const before = existing === undefined ? [] : [existing].flat();
  return [hook, ...before] as Hooks<K>;
}

/**
 * Layout B's list pagination on the current lists (docs/compatibility.md): with
 * `Folio-Layout: B`, every GET answering `{ data, next_cursor }` adds `has_more`, and the
 * lists paged by cursor default `limit` to 20. The routes themselves are untouched: the hooks
 * are attached as each GET route is added, so this is installed before any route.
 * Without the header nothing changes.
 */
export function installLayoutBLists(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('GET')) return;
    if (pagesByCursor(route.schema?.querystring)) {
      route.preValidation = withHook<'preValidation'>(route.preValidation, layoutBPageSize);
    }
    route.preSerialization = withHook<'preSerialization'>(route.preSerialization, layoutBHasMore);
  });
}
