import { useId, useState } from 'react';

/**
 * A read-only value with a "Copy" button: links, keys and records to paste elsewhere. The
 * field is selectable too, for browsers that refuse clipboard access.
 */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <span role="status" className="visually-hidden">
        {copied ? `${label} copied` : ''}
      </span>
    </div>
  );
}
