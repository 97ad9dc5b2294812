import { loadYaml } from '../lib/yaml.js';
import { findFrontmatterBlock } from './frontmatter.js';

/** `key: value  # comment` on one line, the value a plain or quoted scalar. */
const scalarLine = (key: string) =>
  new RegExp(
    `^(${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:[ \\t]*)([^\\s#][^#\\r\\n]*?|)([ \\t]+#[^\\r\\n]*)?(\\r?)$`,
    'm',
  );

/** Patches of more keys than this are applied through the YAML document in one pass. */
const MAX_LINE_EDITS = 32;

const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** A scalar as YAML on one line, quoted only when YAML needs it. */
const inline = (v: unknown) => loadYaml().stringify(v, { lineWidth: 0 }).replace(/\n$/, '');

/**
 * A page file's text with `patch` applied to its frontmatter in place, so the
 * author's YAML (comments, key order, quoting, line endings, a byte-order mark)
 * survives: a top-level scalar on one line has just its value replaced, a new
 * key is added before the closing fence, `null` removes a key's line. Anything
 * else (lists, nested maps, multi-line values) is rewritten through the YAML
 * document model, which keeps comments and order but may respace that part.
 * Answers null when the file has no frontmatter block to patch. `parsed` is the file's
 * frontmatter as `parsePageFile` read it, when the caller has it: the YAML is then not
 * parsed again just to compare values.
 */
export function patchFrontmatterText(
  text: string,
  patch: Record<string, unknown>,
  parsed?: Record<string, unknown>,
): string | null {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const src = text.slice(bom.length);
  const block = findFrontmatterBlock(src);
  if (!block) return null;
  const openFence = src.slice(0, block.openEnd);
  let yaml = src.slice(block.openEnd, block.yamlEnd);
  const eol = /\r\n/.test(openFence + yaml) ? '\r\n' : '\n';
  // The file was read through `parsePageFile`, which checked its keys and size already.
  const current =
    parsed ??
    ((loadYaml().parseDocument(yaml, { uniqueKeys: false }).toJS() ?? {}) as Record<string, unknown>);
  // Values the document model must write, applied in one pass: one parse per key made a
  // patch of many keys cost its length times the YAML's.
  const structured = new Map<string, unknown>();

  // Line edits cost a search of the YAML and a serialisation per key: fine for the few keys
  // an edit changes, not for a patch of hundreds, which goes through the document at once.
  const lineEdits = Object.keys(patch).length <= MAX_LINE_EDITS;
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || key === '__proto__') continue;
    if (!lineEdits) {
      if (JSON.stringify(current[key]) !== JSON.stringify(value)) structured.set(key, value);
      continue;
    }
    if (JSON.stringify(current[key]) === JSON.stringify(value)) continue;
    const line = scalarLine(key).exec(yaml);
    const simple = line !== null && isScalar(current[key]);
    if (value === null) {
      if (simple) yaml = yaml.slice(0, line.index) + yaml.slice(line.index + line[0].length + 1);
      else structured.set(key, null);
    } else if (simple && isScalar(value)) {
      yaml =
        yaml.slice(0, line.index) +
        line[1] +
        inline(value) +
        (line[3] ?? '') +
        line[4] +
        yaml.slice(line.index + line[0].length);
    } else if (!(key in current) && isScalar(value)) {
      yaml += `${key}: ${inline(value)}${eol}`;
    } else {
      structured.set(key, value);
    }
  }
  if (structured.size > 0) yaml = viaDocument(yaml, structured, eol);
  return bom + openFence + yaml + src.slice(block.yamlEnd);
}

function viaDocument(yaml: string, changes: Map<string, unknown>, eol: string): string {
  const { isMap, isScalar: isYamlScalar, parseDocument } = loadYaml();
  const doc = parseDocument(yaml.replace(/\r\n/g, '\n'), { uniqueKeys: false });
  const map: unknown = doc.contents;
  if (!isMap(map)) {
    for (const [key, value] of changes) {
      if (value === null) doc.delete(key);
      else doc.set(key, value);
    }
    return doc.toString({ lineWidth: 0 }).replace(/\n/g, eol);
  }
  // One pass over the mapping's pairs: the document's own set and delete look a key up by
  // scanning every pair, which made a patch of n keys cost n times the mapping.
  const pending = new Map(changes);
  map.items = map.items.filter((pair) => {
    const key = String(isYamlScalar(pair.key) ? pair.key.value : pair.key);
    if (!pending.has(key)) return true;
    const value = pending.get(key);
    pending.delete(key);
    if (value === null) return false;
    pair.value = doc.createNode(value);
    return true;
  });
  for (const [key, value] of pending) if (value !== null) map.items.push(doc.createPair(key, value));
  return doc.toString({ lineWidth: 0 }).replace(/\n/g, eol);
}
