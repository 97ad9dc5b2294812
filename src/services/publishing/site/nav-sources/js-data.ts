/**
 * Reads a JavaScript module that only declares data (Docusaurus's `sidebars.js`, the
 * docs options of `docusaurus.config.js`) without running it: the source is parsed with
 * acorn and only literals, objects, arrays, template strings without expressions and
 * top-level constants bound to those are evaluated. Anything else (a call, a spread, a
 * function) is refused with the line it is on, so a file from a repository can never run
 * code on the server.
 */
import type * as Acorn from 'acorn';
import type { Node, parse as acornParse } from 'acorn';
import { importPackage } from '../../../../lib/import-package.js';

// acorn (160 KB) is loaded by the first reading of a Docusaurus workspace, not at every start.
let parse: typeof acornParse | undefined;

/** Loads the JavaScript parser; call (and await) before any other function of this file. */
export async function loadJsParser(): Promise<void> {
  parse ??= (await importPackage<typeof Acorn>('acorn')).parse;
}

/** Thrown for a construct that is not plain data; `message` names it and its line. */
export class NotDataError extends Error {}

type AnyNode = Node & Record<string, unknown>;

const MAX_NODES = 50_000;

/** Parses a module (ES or CommonJS; comments allowed). Throws a SyntaxError on invalid code. */
export function parseModule(source: string): AnyNode {
  if (!parse) throw new Error('loadJsParser() must be awaited first');
  return parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    locations: true,
    allowHashBang: true,
    allowReturnOutsideFunction: true,
  }) as unknown as AnyNode;
}

const lineOf = (node: AnyNode): number =>
  (node.loc as { start: { line: number } } | undefined)?.start.line ?? 0;

/** Top-level `const|let|var name = <init>` declarations of a program. */
function topLevelBindings(program: AnyNode): Map<string, AnyNode> {
  const bindings = new Map<string, AnyNode>();
  for (const stmt of program.body as AnyNode[]) {
    const decl =
      stmt.type === 'VariableDeclaration'
        ? stmt
        : stmt.type === 'ExportNamedDeclaration' &&
            (stmt.declaration as AnyNode | null)?.type === 'VariableDeclaration'
          ? (stmt.declaration as AnyNode)
          : null;
    if (!decl) continue;
    for (const d of decl.declarations as AnyNode[]) {
      const id = d.id as AnyNode;
      if (id.type === 'Identifier' && d.init) bindings.set(id.name as string, d.init as AnyNode);
    }
  }
  return bindings;
}

/** Evaluates a data expression; identifiers resolve to top-level constants. */
export function evaluateData(
  node: AnyNode,
  bindings: Map<string, AnyNode>,
  seen = new Set<string>(),
): unknown {
  let budget = MAX_NODES;
  const visit = (n: AnyNode): unknown => {
    if (--budget < 0) throw new NotDataError('the file is too large to read as data');
    switch (n.type) {
      case 'Literal':
        if (n.regex) break;
        return n.value;
      case 'TemplateLiteral':
        if ((n.expressions as AnyNode[]).length > 0) break;
        return (n.quasis as AnyNode[]).map((q) => (q.value as { cooked: string }).cooked).join('');
      case 'UnaryExpression':
        if ((n.operator === '-' || n.operator === '+') && (n.argument as AnyNode).type === 'Literal') {
          const v = visit(n.argument as AnyNode);
          if (typeof v === 'number') return n.operator === '-' ? -v : v;
        }
        break;
      case 'ArrayExpression':
        return (n.elements as Array<AnyNode | null>).map((el) => {
          if (!el || el.type === 'SpreadElement') throw notData(el ?? n, 'an array hole or spread');
          return visit(el);
        });
      case 'ObjectExpression': {
        const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
        for (const prop of n.properties as AnyNode[]) {
          if (prop.type !== 'Property' || prop.kind !== 'init' || prop.method)
            throw notData(prop, 'a spread or method');
          const key = prop.key as AnyNode;
          const name =
            !prop.computed && key.type === 'Identifier'
              ? (key.name as string)
              : key.type === 'Literal'
                ? String(key.value)
                : null;
          if (name === null) throw notData(key, 'a computed key');
          if (name === '__proto__') continue;
          out[name] = visit(prop.value as AnyNode);
        }
        return out;
      }
      case 'Identifier': {
        const name = n.name as string;
        if (name === 'undefined') return undefined;
        const bound = bindings.get(name);
        if (!bound || seen.has(name)) break;
        seen.add(name);
        const value = visit(bound);
        seen.delete(name);
        return value;
      }
      case 'ParenthesizedExpression':
        return visit(n.expression as AnyNode);
    }
    throw notData(n, describe(n));
  };
  return visit(node);
}

function describe(n: AnyNode): string {
  if (n.type === 'CallExpression') return 'a function call';
  if (n.type === 'Identifier') return `the name ${String(n.name)}`;
  if (n.type.includes('Function')) return 'a function';
  return `a ${n.type}`;
}

function notData(n: AnyNode, what: string): NotDataError {
  return new NotDataError(`line ${lineOf(n)} uses ${what}, which Folio does not evaluate`);
}

/**
 * The value a data module exports: `module.exports = …`, `export default …`, or one of
 * those naming a top-level constant. Throws NotDataError (or SyntaxError) otherwise.
 */
export function moduleExports(source: string): unknown {
  const program = parseModule(source);
  const bindings = topLevelBindings(program);
  for (const stmt of program.body as AnyNode[]) {
    if (stmt.type === 'ExportDefaultDeclaration') return evaluateData(stmt.declaration as AnyNode, bindings);
    if (stmt.type === 'ExpressionStatement') {
      const expr = stmt.expression as AnyNode;
      if (expr.type !== 'AssignmentExpression' || expr.operator !== '=') continue;
      const left = expr.left as AnyNode;
      const isModuleExports =
        left.type === 'MemberExpression' &&
        (left.object as AnyNode).type === 'Identifier' &&
        (left.object as AnyNode).name === 'module' &&
        ((left.property as AnyNode).name === 'exports' || (left.property as AnyNode).value === 'exports');
      if (isModuleExports) return evaluateData(expr.right as AnyNode, bindings);
    }
  }
  throw new NotDataError('it has no `module.exports =` or `export default`');
}

/**
 * Every object literal of the module, outermost first, so a caller can look for one by
 * its keys (the `docs` options inside `presets`) without evaluating the rest of the file.
 */
export function objectLiterals(source: string): Array<{ node: AnyNode; keys: Map<string, AnyNode> }> {
  const program = parseModule(source);
  const found: Array<{ node: AnyNode; keys: Map<string, AnyNode> }> = [];
  let budget = MAX_NODES * 4;
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object' || --budget < 0) return;
    if (Array.isArray(n)) {
      for (const c of n) walk(c);
      return;
    }
    const node = n as AnyNode;
    if (typeof node.type !== 'string') return;
    if (node.type === 'ObjectExpression') {
      const keys = new Map<string, AnyNode>();
      for (const p of node.properties as AnyNode[]) {
        if (p.type !== 'Property') continue;
        const k = p.key as AnyNode;
        const name =
          k.type === 'Identifier' && !p.computed
            ? (k.name as string)
            : k.type === 'Literal'
              ? String(k.value)
              : null;
        if (name) keys.set(name, p.value as AnyNode);
      }
      found.push({ node, keys });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'loc' && key !== 'type') walk(value);
    }
  };
  walk(program);
  return found;
}

/** A string literal, or `require.resolve('<literal>')`; null for anything else. */
export function stringOrResolve(n: AnyNode | undefined): string | null {
  if (!n) return null;
  if (n.type === 'Literal' && typeof n.value === 'string') return n.value;
  if (n.type === 'TemplateLiteral' && (n.expressions as AnyNode[]).length === 0)
    return (n.quasis as AnyNode[]).map((q) => (q.value as { cooked: string }).cooked).join('');
  if (n.type === 'CallExpression') {
    const callee = n.callee as AnyNode;
    const arg = (n.arguments as AnyNode[])[0];
    if (
      callee.type === 'MemberExpression' &&
      (callee.object as AnyNode).name === 'require' &&
      (callee.property as AnyNode).name === 'resolve' &&
      arg?.type === 'Literal' &&
      typeof arg.value === 'string'
    )
      return arg.value;
  }
  return null;
}
