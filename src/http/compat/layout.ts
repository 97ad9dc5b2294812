import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { ConstraintStrategy, Handler, HTTPVersion } from 'find-my-way';

/** The older layouts of docs/compatibility.md a client may ask for by name. */
export type OlderLayout = 'B' | 'C';

/** The request header naming the older layout whose shapes a client wants. */
export const LAYOUT_HEADER = 'folio-layout';

/**
 * The older layout a request asks for with `Folio-Layout: B` or `Folio-Layout: C`, or null
 * for the current layout (the default whatever else the request sends).
 */
export function requestedLayout(request: Pick<FastifyRequest, 'headers'>): OlderLayout | null {
  const value = String(request.headers[LAYOUT_HEADER] ?? '')
    .trim()
    .toUpperCase();
  return value === 'B' || value === 'C' ? value : null;
}

/** A successor path: fixed, or built from the request (its parameters fill in the current path). */
export type Successor = string | ((request: FastifyRequest) => string);

/** Tag of the compatibility routes in the OpenAPI document. */
export const COMPAT_TAG = 'Compatibility (deprecated)';

/**
 * Route options shared by every compatibility route: marked `deprecated` in the OpenAPI
 * document, and answered (errors included) with `Deprecation: true` and
 * `Link: <successor>; rel="successor-version"` naming the current equivalent.
 * `headerVariant`: the route shares its path and method with a current route and answers
 * only `Folio-Layout` requests; OpenAPI has one operation per path and method, so it is left
 * out of the document, which keeps describing the current route (docs/compatibility.md lists it).
 */
export function deprecatedRoute(
  successor: Successor,
  summary: string,
  options: { headerVariant?: boolean } = {},
) {
  const onSend: NonNullable<RouteShorthandOptions['onSend']> = async (request, reply, payload) => {
    markDeprecated(request, reply, successor);
    return payload;
  };
  const hide = options.headerVariant === true;
  return {
    onSend,
    schema: { deprecated: true, tags: [COMPAT_TAG], summary, ...(hide ? { hide } : {}) },
  } as const;
}

/** Sets the deprecation headers on one response. */
export function markDeprecated(request: FastifyRequest, reply: FastifyReply, successor: Successor): void {
  const target = typeof successor === 'string' ? successor : successor(request);
  reply.header('Deprecation', 'true');
  reply.header('Link', `<${target}>; rel="successor-version"`);
}

/** The path parameters of a request, as strings (for building successor paths). */
export function paramsOf(request: FastifyRequest): Record<string, string> {
  return (request.params ?? {}) as Record<string, string>;
}

/**
 * A route constraint on `Folio-Layout`: a compatibility route registered with
 * `constraints: { layout: 'B' }` answers only requests naming that layout, and the current
 * route at the same path keeps answering every other request. Registered on the app
 * before any route.
 */
export const layoutConstraint: ConstraintStrategy<HTTPVersion.V1, string> = {
  name: 'layout',
  mustMatchWhenDerived: false,
  storage() {
    const handlers = new Map<string, Handler<HTTPVersion.V1>>();
    return {
      get: (value: string) => handlers.get(value) ?? null,
      set: (value: string, store: Handler<HTTPVersion.V1>) => void handlers.set(value, store),
    };
  },
  deriveConstraint: (req) => requestedLayout(req as unknown as Pick<FastifyRequest, 'headers'>) ?? '',
  validate(value: unknown) {
    if (value !== 'B' && value !== 'C') throw new Error('The layout constraint is B or C');
  },
};
