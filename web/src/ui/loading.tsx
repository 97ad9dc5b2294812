/** A quiet placeholder while data loads. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="progressbar" aria-label={label} aria-busy="true">
      <span className="spinner" aria-hidden="true" />
    </div>
  );
}
