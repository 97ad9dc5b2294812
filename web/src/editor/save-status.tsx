import type { SaveStatus as Status } from './page-session';

const LABELS: Record<Status, string> = { saved: 'Saved', saving: 'Saving…', dirty: 'Unsaved changes' };

/** The save state as a live status: "Saved", "Saving…" or "Unsaved changes". */
export function SaveStatus({ status }: { status: Status }) {
  return (
    <p role="status" className={`save-status is-${status}`}>
      {LABELS[status]}
    </p>
  );
}
