import type { FastifyInstance } from 'fastify';

/**
 * Route groups share encapsulation scopes where they can.
 *
 * Fastify gives each registered plugin a scope of its own: a child instance with copies of
 * its parent's hooks, body parsers and schema settings. With some fifty route groups that
 * was 25 ms of every start, and a group that only adds routes needs none of it. So runs of
 * such groups are registered together, in one scope. A group that changes its scope (adds
 * a hook or a body parser, registers a plugin) is marked with `ownScope` and keeps a scope
 * of its own; a group that changes a shared scope without the mark is refused at start,
 * naming what it called, rather than leaking its hook into its neighbours' routes.
 */
const OWN_SCOPE = Symbol('folio.ownScope');

/** One group of routes, given the (possibly shared) scope to add them to. */
export type RouteGroup = ((app: FastifyInstance) => void | Promise<void>) & { [OWN_SCOPE]?: true };

/** Marks a group that changes its scope (hooks, body parsers, plugins): it gets one of its own. */
export function ownScope<G extends (app: FastifyInstance) => void | Promise<void>>(group: G): G {
  return Object.assign(group, { [OWN_SCOPE]: true as const });
}

/** What a group may not call on a shared scope: everything that changes it rather than adding routes. */
const SCOPE_CHANGES = new Set<string>([
  'addHook',
  'addContentTypeParser',
  'removeContentTypeParser',
  'removeAllContentTypeParsers',
  'setErrorHandler',
  'setNotFoundHandler',
  'decorate',
  'decorateRequest',
  'decorateReply',
  'register',
  'addSchema',
  'addConstraintStrategy',
  'setValidatorCompiler',
  'setSerializerCompiler',
  'setReplySerializer',
  'setSchemaErrorFormatter',
]);

/** Registers `groups` in order: runs of plain groups in one scope each, marked groups alone. */
export async function registerRouteGroups(
  app: FastifyInstance,
  groups: readonly RouteGroup[],
): Promise<void> {
  let run: RouteGroup[] = [];
  const registerRun = async () => {
    if (run.length === 0) return;
    const shared = run;
    run = [];
    await app.register(async (scope) => {
      const guarded = guardScope(scope);
      for (const group of shared) await group(guarded);
    });
  };
  for (const group of groups) {
    if (group[OWN_SCOPE] !== true) {
      run.push(group);
      continue;
    }
    await registerRun();
    await app.register(async (scope) => group(scope));
  }
  await registerRun();
}

function guardScope(scope: FastifyInstance): FastifyInstance {
  return new Proxy(scope, {
    get(target, key, receiver) {
      if (typeof key === 'string' && SCOPE_CHANGES.has(key)) {
        throw new Error(
          `A route group in a shared scope called ${key}, which would change its neighbours' routes too: mark it with ownScope()`,
        );
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}
