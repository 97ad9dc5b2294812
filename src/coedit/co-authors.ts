/**
 * Who else typed a page saved by a co-editing room, waiting for the commit that
 * takes that save: the room notes them before it saves (as the first typist),
 * the git auto-commit takes them for the paths it commits and adds a
 * `Co-authored-by` trailer per person. In-process: the instance that saves a
 * page is the one that commits it (commits.ts listens to local events only).
 */
export function createCoAuthorNotes() {
  const notes = new Map<string, Set<string>>();
  const keyOf = (workspaceId: string, path: string) => `${workspaceId}\u0000${path}`;
  return {
    /** Adds user ids as co-authors of the next commit of the page. */
    note(workspaceId: string, path: string, userIds: Iterable<string>): void {
      const key = keyOf(workspaceId, path);
      const set = notes.get(key) ?? new Set<string>();
      for (const id of userIds) set.add(id);
      if (set.size > 0) notes.set(key, set);
    },

    /** Answers and forgets the co-authors noted for these pages. */
    take(workspaceId: string, paths: Iterable<string>): string[] {
      const out = new Set<string>();
      for (const path of paths) {
        const key = keyOf(workspaceId, path);
        for (const id of notes.get(key) ?? []) out.add(id);
        notes.delete(key);
      }
      return [...out];
    },
  };
}

export type CoAuthorNotes = ReturnType<typeof createCoAuthorNotes>;
