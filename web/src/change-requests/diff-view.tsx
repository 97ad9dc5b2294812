/**
 * A unified diff as lines: additions and removals marked in words as well as colour (the
 * "+"/"−" stay), with the page's line number in the request's version beside each line
 * that exists there, so a reviewer can name it in an inline comment.
 */
export function DiffView({ diff, label }: { diff: string; label: string }) {
  const rows = diffRows(diff);
  return (
    <div className="cr-diff" role="region" aria-label={label} tabIndex={0}>
      <table>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className={`cr-diff-${row.kind}`}>
              <td className="cr-diff-number">{row.number}</td>
              <td className="cr-diff-line">
                {row.kind === 'added' && <span className="visually-hidden">Added: </span>}
                {row.kind === 'removed' && <span className="visually-hidden">Removed: </span>}
                {row.line}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface DiffRow {
  key: number;
  kind: 'hunk' | 'meta' | 'added' | 'removed' | 'context';
  number: string;
  line: string;
}

/** The diff's lines, each numbered by its line in the new version where it has one. */
function diffRows(diff: string): DiffRow[] {
  const lines = diff.split('\n').filter((line, i, all) => !(i === all.length - 1 && line === ''));
  let newLine = 0;
  return lines.map((line, key): DiffRow => {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line);
    if (hunk) {
      newLine = Number(hunk[1]) - 1;
      return { key, kind: 'hunk', number: '', line };
    }
    if (/^(diff --git|index |--- |\+\+\+ |similarity |rename |new file|deleted file)/.test(line)) {
      return { key, kind: 'meta', number: '', line };
    }
    if (line.startsWith('+')) return { key, kind: 'added', number: String(++newLine), line };
    if (line.startsWith('-')) return { key, kind: 'removed', number: '', line };
    return { key, kind: 'context', number: String(++newLine), line };
  });
}
