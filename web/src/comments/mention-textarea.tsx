import {
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type TextareaHTMLAttributes,
} from 'react';
import type { Person } from './comments-api';

const MAX_SUGGESTIONS = 6;

/** The `@word` being typed just before the caret (the server's mention rule), or null. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|[^A-Za-z0-9_.@/-])@([a-z0-9-]*)$/i.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

function suggestionsFor(people: readonly Person[], query: string): Person[] {
  const starts = people.filter(
    (p) => p.handle.toLowerCase().startsWith(query) || p.name.toLowerCase().startsWith(query),
  );
  const contains = people.filter(
    (p) => !starts.includes(p) && (p.handle.includes(query) || p.name.toLowerCase().includes(query)),
  );
  return [...starts, ...contains].slice(0, MAX_SUGGESTIONS);
}

type Props = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  people: readonly Person[];
  /** Ctrl/Cmd+Enter. */
  onSubmit: () => void;
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'onSubmit'>;

/**
 * A labelled comment box where `@` offers the workspace's members: arrows
 * choose, Enter or Tab inserts `@handle`, Escape dismisses. The textarea
 * keeps focus (the list is its `aria-activedescendant`), so typing goes on.
 */
export function MentionTextarea({ label, value, onChange, people, onSubmit, ...textarea }: Props) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  // Where the caret goes once an inserted handle is rendered. Set in a layout
  // effect of that very render, so a key typed straight after lands behind the
  // handle (a later animation frame could move the caret back mid-word).
  const caretAfterInsert = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caretAfterInsert.current === null) return;
    ref.current?.setSelectionRange(caretAfterInsert.current, caretAfterInsert.current);
    caretAfterInsert.current = null;
  }, [value]);
  const suggestions = mention ? suggestionsFor(people, mention.query) : [];
  const open = suggestions.length > 0;
  const listId = `${id}-mentions`;
  const optionId = (i: number) => `${id}-mention-${i}`;

  const track = (text: string, caret: number) => {
    const found = mentionAt(text, caret);
    setMention(found);
    if (found?.query !== mention?.query) setActive(0);
  };

  const insert = (person: Person) => {
    if (!mention) return;
    const caret = ref.current?.selectionStart ?? value.length;
    const next = `${value.slice(0, mention.start)}@${person.handle} ${value.slice(caret)}`;
    caretAfterInsert.current = mention.start + person.handle.length + 2;
    onChange(next);
    setMention(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
      event.preventDefault();
      return onSubmit();
    }
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + suggestions.length) % suggestions.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      insert(suggestions[active] ?? suggestions[0]!);
    } else if (event.key === 'Escape') {
      // Closes the list only, not the panel around it.
      event.preventDefault();
      event.stopPropagation();
      setMention(null);
    }
  };

  return (
    <div className="field mention-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        {...textarea}
        id={id}
        ref={ref}
        value={value}
        rows={3}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(active) : undefined}
        onChange={(event) => {
          onChange(event.target.value);
          track(event.target.value, event.target.selectionStart);
        }}
        onSelect={(event) => track(event.currentTarget.value, event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => setMention(null)}
      />
      {open && (
        <ul className="mention-list" role="listbox" id={listId} aria-label="People to mention">
          {suggestions.map((person, i) => (
            <li
              key={person.user_id}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'is-active' : undefined}
              // Keeps focus in the textarea, so the caret stays where the handle goes.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => insert(person)}
            >
              <span className="mention-name">{person.name}</span>{' '}
              <span className="mention-handle">@{person.handle}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" aria-live="polite">
        {open ? `${suggestions.length} people to mention; use the arrow keys and Enter` : ''}
      </p>
    </div>
  );
}
