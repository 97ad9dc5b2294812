/** The sidebar of a workspace without pages: says so and, for editors, offers the first one. */
export function EmptyTree({ onCreate }: { onCreate?: () => void }) {
  return (
    <div className="tree-empty">
      <p>No pages yet</p>
      {onCreate && (
        <button type="button" className="button small primary" onClick={onCreate}>
          Create the first page
        </button>
      )}
    </div>
  );
}
