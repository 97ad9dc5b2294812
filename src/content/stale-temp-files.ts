import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../server-lock.js';
import { removeFileDurable, TEMP_PREFIX } from './atomic-write.js';

/** The process id in a temp file's name (`.folio-tmp-<pid>-<random>`), or null for another name. */
function writerPid(name: string): number | null {
  if (!name.startsWith(TEMP_PREFIX)) return null;
  const pid = Number(/^(\d+)-/.exec(name.slice(TEMP_PREFIX.length))?.[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Deletes the temp files that atomic writes left in `dir` and below (but `.git`) when their
 * process died before renaming them (`.folio-tmp-<pid>-*`). A file whose writer is still
 * alive is kept, except this process's own (a restarted container gets the same pid), so
 * call it at start before this process writes under `dir`. Answers how many were removed.
 */
export async function removeStaleTempFiles(dir: string): Promise<number> {
  let removed = 0;
  const visit = async (current: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git') await visit(full);
        continue;
      }
      const pid = writerPid(entry.name);
      if (pid === null || (pid !== process.pid && isProcessAlive(pid))) continue;
      if (await removeFileDurable(full)) removed++;
    }
  };
  await visit(dir);
  return removed;
}
