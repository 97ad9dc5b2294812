import { createRequire } from 'node:module';

/**
 * A package that is loaded on its first use instead of at start: the returned function
 * `require`s it synchronously the first time it is called and hands back the same module
 * after that. Code that needs a package only now and then (a YAML parser, a TeX
 * renderer, a password hash) keeps it out of what every start compiles and keeps in memory,
 * without making its callers asynchronous.
 *
 * The require is built from this module's URL, so the bundler sees no import and leaves the
 * package to Node, which resolves it from node_modules as it does for the sources. Only
 * packages with a CommonJS entry can be loaded this way.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(import.meta.url)(name) as T);
}
