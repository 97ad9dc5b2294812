import { useEffect, useRef, type KeyboardEvent } from 'react';

/** The AI writing actions, as the menu names them. */
export const AI_ACTIONS = [
  { action: 'improve', label: 'Improve' },
  { action: 'simplify', label: 'Simplify' },
  { action: 'expand', label: 'Expand' },
  { action: 'summarize', label: 'Summarize' },
  { action: 'fix_grammar', label: 'Fix grammar' },
  { action: 'translate', label: 'Translate…' },
] as const;

export type AiAction = (typeof AI_ACTIONS)[number]['action'];

interface AiMenuProps {
  onChoose: (action: AiAction) => void;
  onClose: () => void;
}

/**
 * The actions as an ARIA menu: focus starts on the first item; arrows, Home and End move
 * between items; Escape and Tab close it (Escape returns focus to the button).
 */
export function AiMenu({ onChoose, onClose }: AiMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]') ?? [])];

  useEffect(() => items()[0]?.focus(), []);

  const onKeyDown = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      onClose();
    }
  };

  return (
    <div className="ai-menu" role="menu" aria-label="AI actions" ref={menu} onKeyDown={onKeyDown}>
      {AI_ACTIONS.map(({ action, label }) => (
        <button key={action} type="button" role="menuitem" tabIndex={-1} onClick={() => onChoose(action)}>
          {label}
        </button>
      ))}
    </div>
  );
}
