/**
 * A chart's numbers as a table, behind a disclosure: for screen readers, keyboards and
 * anyone who wants the exact figures.
 */
export function DataTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: readonly [string, string];
  rows: readonly (readonly [string, number])[];
}) {
  return (
    <details className="chart-table">
      <summary>Show as a table</summary>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
