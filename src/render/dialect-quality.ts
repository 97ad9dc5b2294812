/**
 * What the quality report says about the dialects of other docs tools: JSX components
 * Folio does not render (their children are shown, the component itself is not) and icon
 * shortcodes of sets Folio does not ship (removed from the page). Also the block ids
 * (`^id`) a page defines, which `[[Note#^id]]` links may point at. Linear scans.
 */
import { findIconShortcodes, KNOWN_COMPONENTS, parseJsxLine } from './dialects/index.js';
import { maskCode } from './links.js';

/** One dialect finding: its kind, what was written and its 1-based line. */
export interface DialectFinding {
  kind: 'unknown_component' | 'unsupported_icon';
  target: string;
  line: number;
}

/** The unknown components and icon shortcodes of a body, outside code. */
export function dialectFindings(body: string): DialectFinding[] {
  if (!body.includes('<') && !body.includes(':')) return [];
  const findings: DialectFinding[] = [];
  maskCode(body)
    .split('\n')
    .forEach((line, i) => {
      const jsx = line.includes('<') ? parseJsxLine(line) : null;
      if (jsx && !jsx.closing && !KNOWN_COMPONENTS.has(jsx.name))
        findings.push({ kind: 'unknown_component', target: jsx.name, line: i + 1 });
      if (line.includes(':'))
        for (const icon of findIconShortcodes(line))
          findings.push({ kind: 'unsupported_icon', target: icon, line: i + 1 });
    });
  return findings;
}

/** The block ids a body defines, as anchors (`^id`). */
export function blockAnchors(body: string): string[] {
  const ids: string[] = [];
  for (const line of maskCode(body, false).split('\n')) {
    const m = /(?:^|\s)(\^[A-Za-z0-9-]{1,64})\s*$/.exec(line);
    if (m?.[1]) ids.push(m[1]);
  }
  return ids;
}
