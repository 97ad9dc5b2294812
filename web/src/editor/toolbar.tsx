import type { EditorView } from '@codemirror/view';
import { keymap } from '@codemirror/view';
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { chooseImages } from './image-upload';
import {
  CALLOUT,
  formatCode,
  insertBlock,
  insertLink,
  prefixLines,
  TABLE,
  wrapSelection,
} from './markdown-edits';
import '../styles/editor-tools.css';

interface Tool {
  name: string;
  /** For `aria-keyshortcuts`, when the tool has one. */
  shortcut?: string;
  icon: ReactNode;
  run: (view: EditorView) => boolean;
}

const bold = (view: EditorView) => wrapSelection(view, '**', '**', 'bold text');
const italic = (view: EditorView) => wrapSelection(view, '_', '_', 'italic text');

/** Line-drawn icons on a 20×20 grid, in the button's text colour. */
const Icon = ({ children }: { children: ReactNode }) => (
  <svg
    viewBox="0 0 20 20"
    width="18"
    height="18"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.7"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    {children}
  </svg>
);

const TOOLS: Tool[] = [
  { name: 'Bold', shortcut: 'Control+B Meta+B', icon: <b className="glyph">B</b>, run: bold },
  { name: 'Italic', shortcut: 'Control+I Meta+I', icon: <i className="glyph serif">I</i>, run: italic },
  { name: 'Heading', icon: <span className="glyph">H</span>, run: (view) => prefixLines(view, '## ') },
  {
    name: 'Link',
    icon: (
      <Icon>
        <path d="M8.5 11.5a3.5 3.5 0 0 0 5 0l2.5-2.5a3.5 3.5 0 0 0-5-5l-1 1" />
        <path d="M11.5 8.5a3.5 3.5 0 0 0-5 0L4 11a3.5 3.5 0 0 0 5 5l1-1" />
      </Icon>
    ),
    run: insertLink,
  },
  {
    name: 'Bulleted list',
    icon: (
      <Icon>
        <path d="M8 5h9M8 10h9M8 15h9" />
        <circle cx="3.5" cy="5" r="0.6" fill="currentColor" />
        <circle cx="3.5" cy="10" r="0.6" fill="currentColor" />
        <circle cx="3.5" cy="15" r="0.6" fill="currentColor" />
      </Icon>
    ),
    run: (view) => prefixLines(view, '- '),
  },
  {
    name: 'Numbered list',
    icon: (
      <Icon>
        <path d="M8 5h9M8 10h9M8 15h9" />
        <path d="M3 3.5l1-.5v4M2.5 12h2l-2 3.5h2" strokeWidth="1.2" />
      </Icon>
    ),
    run: (view) => prefixLines(view, 'numbered'),
  },
  {
    name: 'Task list',
    icon: (
      <Icon>
        <rect x="2.5" y="3" width="5" height="5" rx="1" />
        <path d="M3.5 5.5l1 1 2-2M10 5.5h7.5M10 14h7.5" />
        <rect x="2.5" y="11.5" width="5" height="5" rx="1" />
      </Icon>
    ),
    run: (view) => prefixLines(view, '- [ ] '),
  },
  {
    name: 'Quote',
    icon: (
      <Icon>
        <path d="M4 4v12M8 6h8M8 10h8M8 14h5" />
      </Icon>
    ),
    run: (view) => prefixLines(view, '> '),
  },
  {
    name: 'Callout',
    icon: (
      <Icon>
        <rect x="2.5" y="3.5" width="15" height="13" rx="2" />
        <path d="M10 7v4M10 13.5v.01" />
      </Icon>
    ),
    run: (view) => insertBlock(view, CALLOUT.text, CALLOUT.cursor),
  },
  {
    name: 'Code',
    icon: (
      <Icon>
        <path d="M7 5l-5 5 5 5M13 5l5 5-5 5" />
      </Icon>
    ),
    run: formatCode,
  },
  {
    name: 'Image',
    icon: (
      <Icon>
        <rect x="2.5" y="3.5" width="15" height="13" rx="1.5" />
        <circle cx="7" cy="8" r="1.5" />
        <path d="M3 15l4.5-4.5 3 3 2.5-2.5 4.5 4.5" />
      </Icon>
    ),
    run: (view) => {
      chooseImages(view);
      return true;
    },
  },
  {
    name: 'Table',
    icon: (
      <Icon>
        <rect x="2.5" y="3.5" width="15" height="13" rx="1.5" />
        <path d="M2.5 8h15M2.5 12.25h15M10 3.5v13" />
      </Icon>
    ),
    run: (view) => insertBlock(view, TABLE.text, TABLE.cursor),
  },
];

/** Ctrl/Cmd+B and Ctrl/Cmd+I, as the toolbar's Bold and Italic buttons announce. */
export const formattingKeys = keymap.of([
  { key: 'Mod-b', run: bold },
  { key: 'Mod-i', run: italic },
]);

/**
 * The formatting toolbar above the editor (WAI-ARIA toolbar pattern): one tab stop, the
 * arrow keys, Home and End move between buttons. A button writes Markdown around the
 * selection and hands the focus back to the text.
 */
export function Toolbar({ view, hidden }: { view: EditorView | null; hidden: boolean }) {
  const [active, setActive] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  const move = (event: KeyboardEvent) => {
    const last = TOOLS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? active === last
          ? 0
          : active + 1
        : event.key === 'ArrowLeft'
          ? active === 0
            ? last
            : active - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    buttons.current[next]?.focus();
  };

  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Formatting" hidden={hidden} onKeyDown={move}>
      {TOOLS.map((tool, i) => (
        <button
          key={tool.name}
          ref={(el) => {
            buttons.current[i] = el;
          }}
          type="button"
          className="toolbar-button"
          aria-label={tool.name}
          aria-keyshortcuts={tool.shortcut}
          title={tool.name}
          tabIndex={i === active ? 0 : -1}
          disabled={!view}
          // Keeps the editor's selection: the button acts on it, then the writer types on.
          onMouseDown={(event) => event.preventDefault()}
          onFocus={() => setActive(i)}
          onClick={() => view && tool.run(view)}
        >
          {tool.icon}
        </button>
      ))}
    </div>
  );
}
