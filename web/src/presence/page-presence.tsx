import { useEffect } from 'react';
import { useMe } from '../api/queries';
import { useEvents } from '../live/workspace-events';
import { usePresentUsers, type PresentUser } from './presence-store';

const MAX_SHOWN = 4;

/** Colours with white text at WCAG AA contrast, in light and dark themes alike. */
const COLOURS = ['#3451c7', '#1f7a4d', '#9a3412', '#7e22ce', '#b42318', '#0f766e', '#a21caf', '#475569'];

/** Which of the eight colours is a user's: the same for their avatar and their cursor in a co-edited page. */
export function colourIndexOf(userId: string): number {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return Math.abs(hash) % COLOURS.length;
}

function colourOf(userId: string): string {
  return COLOURS[colourIndexOf(userId)]!;
}

/** "Ada Lovelace" → "AL"; one word → its first two letters. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const letters = words.length === 1 ? [...words[0]!].slice(0, 2) : [words[0]![0], words.at(-1)![0]];
  return letters.join('').toUpperCase();
}

/**
 * Tells the server this tab shows `path` (and no page once it closes), and
 * shows who else has the same page open: up to four avatars, then "+n".
 */
export function PagePresence({ path }: { path: string }) {
  const events = useEvents();
  const me = useMe();
  const present = usePresentUsers(events);

  useEffect(() => {
    events.view(path);
    return () => events.view(null);
  }, [events, path]);

  const others = present.filter((u) => u.path === path && u.user_id !== me.data?.id);
  if (others.length === 0) return null;
  const shown = others.slice(0, MAX_SHOWN);
  const hidden = others.slice(shown.length);
  return (
    <ul className="presence-avatars" aria-label="Also on this page">
      {shown.map((user) => (
        <li key={user.user_id}>
          <Avatar user={user} />
        </li>
      ))}
      {hidden.length > 0 && (
        <li>
          <span
            className="avatar more"
            role="img"
            aria-label={`${hidden.length} more: ${hidden.map((u) => u.name).join(', ')}`}
            title={hidden.map((u) => u.name).join(', ')}
          >
            +{hidden.length}
          </span>
        </li>
      )}
    </ul>
  );
}

function Avatar({ user }: { user: PresentUser }) {
  return (
    <span
      className="avatar"
      role="img"
      aria-label={user.name}
      title={user.name}
      style={{ background: colourOf(user.user_id) }}
    >
      {initialsOf(user.name)}
    </span>
  );
}
