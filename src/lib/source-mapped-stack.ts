import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A frame's location in a built file: `/…/dist/folio.js:446:3411` (or as a `file:///…` URL). */
const FRAME_RE = /((?:file:\/\/)?\/[^\s()]+?\.js):(\d+):(\d+)/g;

/**
 * `stack` with each location in a bundled file that has a source map beside it (dist/,
 * built with `sourcemap: 'linked'`) replaced by the TypeScript file and line it came from,
 * relative to the working directory when inside it: `src/metrics/metrics.ts:89:3`. Locations without a map
 * (Node's own, the sources run through tsx) are kept. The maps are read only here, when a
 * stack is printed: enabling source maps for the whole process would parse megabytes of
 * them at every start.
 */
export function sourceMappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (file: string): SourceMap | null => {
    if (!maps.has(file)) {
      let map: SourceMap | null = null;
      try {
        if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        map = null;
      }
      maps.set(file, map);
    }
    return maps.get(file) ?? null;
  };
  return stack.replace(FRAME_RE, (whole, location: string, line: string, column: string) => {
    let file: string;
    try {
      file = location.startsWith('file:') ? fileURLToPath(location) : location;
    } catch {
      return whole;
    }
    const entry = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) return whole;
    const source = path.resolve(path.dirname(file), entry.originalSource);
    const relative = path.relative(process.cwd(), source);
    const shown = relative.startsWith('..') || path.isAbsolute(relative) ? source : relative;
    return `${shown}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
