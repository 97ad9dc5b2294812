/**
 * Runs the bundle (dist/) from V8's code cache: what `bin/folio.js` uses to start the CLI.
 *
 * Compiling the start-up code is the largest single cost of a start (bench/RESULTS.md,
 * startup). Node 20 has no compile cache of its own (`module.enableCompileCache` is Node
 * 22) and none at all for ES modules, so the build emits the bundle as CommonJS
 * (scripts/build.mjs) and this loader compiles each of its files with `vm.Script`,
 * handing V8 the code it compiled for that file on an earlier start. A couple of seconds
 * after the last file compiled without one, the files whose cache was missing or refused
 * are saved, with every function compiled so far, under dist/.code-cache/ (which each
 * build empties).
 *
 * V8 refuses a cache made by another Node version or under other V8 flags (`npm start`
 * passes some), so each combination has a directory of its own. A refused or unreadable
 * cache only means compiling as usual; a dist/ that cannot be written only means no cache.
 * With `--enable-source-maps`, files are left to Node so that it maps stack traces.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { provideImporter } from '../lib/import-package.js';
import { growYoungGenerationDuringStart, type YoungGeneration } from './young-generation.js';

/**
 * How long after the last file compiled without a cache the new caches are written: a
 * server has started and answered by then, however slow the machine, and a file first
 * loaded later (on first use) is saved a while after it too.
 */
const SAVE_AFTER_MS = 2_000;

// Node's own CommonJS wrapper, ending in a line break so that the file's lines keep their
// numbers (lineOffset -1) and its first line its columns.
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';
const HEAD_BYTES = Buffer.from(WRAPPER_HEAD, 'latin1');
const TAIL_BYTES = Buffer.from(WRAPPER_TAIL, 'latin1');

interface LoadingModule {
  exports: unknown;
}

type LoadExtension = (this: unknown, module: LoadingModule, filename: string) => void;

interface Compiled {
  script: vm.Script;
  cacheFile: string;
  /** Read under the V8 flags the process started with, so to be made under them too. */
  readUnderStartFlags: boolean;
}

export interface RunOptions {
  /**
   * Lets V8's young generation grow while the bundle loads, then stops it
   * (young-generation.ts): for a process started without a size for it.
   */
  growYoungGeneration?: boolean;
}

/** Requires `entry` (a file of the bundle), compiling the bundle's files from the code cache. */
export function runWithCodeCache(entry: string, options: RunOptions = {}): unknown {
  const youngGeneration: YoungGeneration | undefined = options.growYoungGeneration
    ? growYoungGenerationDuringStart()
    : undefined;
  const load = createRequire(entry);
  if (process.sourceMapsEnabled) return load(entry);
  const root = path.dirname(entry);
  const cacheDir = path.join(root, '.code-cache', v8Flavour());
  const uncached: Compiled[] = [];
  let saveTimer: NodeJS.Timeout | undefined;
  const extensions = (Module as unknown as { _extensions: Record<string, LoadExtension> })._extensions;
  const loadJs = extensions['.js']!;
  // Reads the file and its cache and compiles it. Neither buffer is held while the file
  // runs, which for the entry file is the whole start: held, they would outlive young
  // collections and wait in the old generation for a full one.
  const compile = (filename: string): vm.Script => {
    const cacheFile = path.join(cacheDir, `${path.relative(root, filename)}.bin`);
    const cachedData = readIfPresent(cacheFile);
    const script = new vm.Script(wrappedSource(filename), { filename, lineOffset: -1, cachedData });
    if (!cachedData || script.cachedDataRejected) {
      uncached.push({ script, cacheFile, readUnderStartFlags: !youngGeneration?.stopped });
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => saveCodeCache(uncached.splice(0), youngGeneration), SAVE_AFTER_MS).unref();
    }
    return script;
  };
  extensions['.js'] = function (module: LoadingModule, filename: string) {
    if (path.relative(root, filename).startsWith('..')) return loadJs.call(this, module, filename);
    const wrapper = compile(filename).runInThisContext() as (...args: unknown[]) => unknown;
    wrapper.call(
      module.exports,
      module.exports,
      createRequire(filename),
      module,
      filename,
      path.dirname(filename),
    );
    youngGeneration?.check();
  };
  // A script compiled from a cache cannot call import(); this module, compiled by Node, can.
  provideImporter((name) => import(name));
  return load(entry);
}

/**
 * A file's text inside Node's CommonJS wrapper, made as one string. Concatenating the
 * wrapper to the text Node's loader reads would make each file's text twice, the first
 * copy (1.3 MB of the start-up files' 2 MB are over V8's large-object size) left in the old
 * generation for the next full collection. The start-up files are ASCII
 * (scripts/build.mjs) and are decoded as Latin-1; a chunk that is not (one loaded on first
 * use) as UTF-8.
 */
function wrappedSource(filename: string): string {
  const text = fs.readFileSync(filename);
  const wrapped = Buffer.concat([HEAD_BYTES, text, TAIL_BYTES]);
  return wrapped.toString(isAscii(text) ? 'latin1' : 'utf8');
}

/** The Node version and V8 flags a cache is valid for, as a short directory name. */
function v8Flavour(): string {
  const flags = [process.version, process.arch, ...process.execArgv, process.env.NODE_OPTIONS ?? ''];
  return createHash('sha256').update(flags.join('\0')).digest('hex').slice(0, 16);
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Writes each script's cache (temp file, then rename, so a reader never sees half of one).
 * Best effort: a cache that cannot be written is compiled again on the next start.
 */
function saveCodeCache(compiled: Compiled[], youngGeneration: YoungGeneration | undefined): void {
  for (const { script, cacheFile, readUnderStartFlags } of compiled) {
    const temp = `${cacheFile}.${process.pid}.tmp`;
    try {
      const cache =
        readUnderStartFlags && youngGeneration
          ? youngGeneration.underStartFlags(() => script.createCachedData())
          : script.createCachedData();
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      fs.writeFileSync(temp, cache);
      fs.renameSync(temp, cacheFile);
    } catch {
      fs.rmSync(temp, { force: true });
      return;
    }
  }
}
