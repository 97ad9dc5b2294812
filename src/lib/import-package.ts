/**
 * `import()` of a package that Folio loads on first use (pg, jose, the MCP SDK...).
 *
 * The bundle's code runs from V8's code cache (src/cli/code-cache.ts), and on Node 20 a
 * script compiled from a code cache has no loader for `import()`: the call fails with
 * ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. The cache's loader, which Node compiles itself,
 * registers an importer of its own under this symbol; everywhere else (the sources under
 * tsx, worker threads) `import()` is called directly. Either way the caller gets Node's
 * own module namespace, the same as `await import(name)`.
 */
const LOADER_IMPORT = Symbol.for('folio.importPackage');

type Importer = (name: string) => Promise<unknown>;

export function importPackage<T>(name: string): Promise<T> {
  const fromLoader = (globalThis as Record<symbol, Importer | undefined>)[LOADER_IMPORT];
  return (fromLoader ? fromLoader(name) : import(name)) as Promise<T>;
}

/** Makes `importPackage` use `importer` (the code cache's loader calls this before the bundle runs). */
export function provideImporter(importer: Importer): void {
  (globalThis as Record<symbol, Importer | undefined>)[LOADER_IMPORT] = importer;
}
