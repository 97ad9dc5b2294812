import { useState } from 'react';

interface ConfirmButtonProps {
  /** What the first button says, e.g. "Delete…". */
  label: string;
  /** What the second, confirming button says, e.g. "Delete Version 1". */
  confirmLabel: string;
  /** An accessible name for the first button when its label alone is ambiguous in a list. */
  ariaLabel?: string;
  onConfirm: () => void;
  busy?: boolean;
  /** `danger` for removals; `primary` for a consequential but constructive action. */
  tone?: 'danger' | 'primary';
  small?: boolean;
}

/**
 * A consequential action in two steps: the button asks, then "Keep" and the confirming
 * button offer the choice in place (no dialog, so the list keeps its context).
 */
export function ConfirmButton({
  label,
  confirmLabel,
  ariaLabel,
  onConfirm,
  busy = false,
  tone = 'danger',
  small = false,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const size = small ? ' small' : '';
  const toneClass = tone === 'danger' ? ' danger-outline' : ' primary';
  if (!asking) {
    return (
      <button
        type="button"
        className={`button${size}${tone === 'danger' ? toneClass : ''}`}
        aria-label={ariaLabel}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <>
      <button type="button" className={`button${size}`} onClick={() => setAsking(false)}>
        Keep
      </button>
      <button type="button" className={`button${size}${toneClass}`} disabled={busy} onClick={onConfirm}>
        {confirmLabel}
      </button>
    </>
  );
}
