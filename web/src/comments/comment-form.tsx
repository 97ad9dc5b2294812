import { useState } from 'react';
import { FormError } from '../ui/form-error';
import type { Person } from './comments-api';
import { MentionTextarea } from './mention-textarea';

interface Props {
  label: string;
  submitLabel: string;
  people: readonly Person[];
  initial?: string;
  autoFocus?: boolean;
  /** Stores the body; the form empties itself once it resolves. */
  onSubmit: (body: string) => Promise<unknown>;
  onCancel?: () => void;
}

/** A comment box with its submit (and cancel) button, for new threads, replies and edits. */
export function CommentForm({
  label,
  submitLabel,
  people,
  initial = '',
  autoFocus,
  onSubmit,
  onCancel,
}: Props) {
  const [body, setBody] = useState(initial);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const empty = body.trim() === '';

  const submit = async () => {
    if (empty || pending) return;
    setPending(true);
    setError(null);
    try {
      await onSubmit(body);
      setBody('');
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      className="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel && !event.defaultPrevented) {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <MentionTextarea
        label={label}
        value={body}
        onChange={setBody}
        people={people}
        onSubmit={() => void submit()}
        autoFocus={autoFocus}
        maxLength={20_000}
      />
      <FormError error={error} />
      <div className="comment-form-actions">
        {onCancel && (
          <button type="button" className="button small" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button small primary" disabled={empty || pending}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
