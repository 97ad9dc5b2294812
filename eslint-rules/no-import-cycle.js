/**
 * `folio/no-import-cycle`: no module may reach itself through its imports, counting
 * type-only imports and re-exports (`import type`, `export type … from`), which
 * eslint-plugin-import-x's `no-cycle` always skips (hence a rule of Folio's own, which is
 * also far cheaper than import-x's resolver). A type-only cycle costs nothing at
 * run time but still ties two files together: whatever they share belongs in a third.
 *
 * Only relative specifiers are followed (Folio has no path aliases; a package cannot
 * import back into the project). Other files are read from disk with TypeScript's
 * import scanner, cached by modification time; the file being linted is read from
 * the text ESLint holds, so an editor's unsaved buffer counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** path -> { version, imports }; the version is modification time and size. */
const importsCache = new Map();

/** The project file a relative specifier names (NodeNext: `./x.js` is `./x.ts`), or null. */
function resolve(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|mjs|cjs|jsx)$/, '');
  const candidates = [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, base, path.join(base, 'index.ts')];
  return candidates.find((candidate) => isFile(candidate)) ?? null;
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The relative specifiers of a file's static and dynamic imports and re-exports. */
function specifiersIn(text) {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The project files `file` imports, read from disk. */
function importsOf(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const cached = importsCache.get(file);
  const version = `${stat.mtimeMs}:${stat.size}`;
  if (cached && cached.version === version) return cached.imports;
  const text = fs.readFileSync(file, 'utf8');
  const imports = [
    ...new Set(
      specifiersIn(text)
        .map((s) => resolve(file, s))
        .filter(Boolean),
    ),
  ];
  importsCache.set(file, { version, imports });
  return imports;
}

/** A path of imports from `start` back to `target` (breadth first: the shortest), or null. */
function routeBack(start, target) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of importsOf(file)) {
      if (next === target) {
        const route = [file];
        for (let at = previous.get(file); at; at = previous.get(at)) route.unshift(at);
        return route;
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle: {{route}}' },
  },
  create(context) {
    const filename = context.physicalFilename;
    if (!path.isAbsolute(filename)) return {};
    const cwd = context.cwd;
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolve(filename, source.value);
      if (!target || target === filename) return;
      const route = routeBack(target, filename);
      if (!route) return;
      const names = [filename, ...route, filename].map((f) => path.relative(cwd, f));
      context.report({ node, messageId: 'cycle', data: { route: names.join(' -> ') } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'no-import-cycle': noImportCycle } };
