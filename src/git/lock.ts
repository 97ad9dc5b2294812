/**
 * Serialises git work per workspace. Two syncs, or a sync and an auto-commit,
 * touching one working tree at once would fight over index.lock or merge into
 * a half-written tree.
 */

/**
 * What callers depend on. The in-process KeyedLock suffices for one server; a
 * PostgreSQL advisory-lock implementation can replace it for several
 * instances without changing callers.
 */
export interface WorkspaceLock {
  /** Runs `fn` once every earlier `run` for the same workspace has settled; resolves or rejects with `fn`'s result. */
  run<T>(workspaceId: string, fn: () => Promise<T>): Promise<T>;
}

/** An in-process async mutex per key: FIFO within a key, no ordering between keys. */
export class KeyedLock implements WorkspaceLock {
  /** The tail of each key's queue; removed when the queue drains so idle keys cost nothing. */
  private readonly tails = new Map<string, Promise<void>>();

  /** See WorkspaceLock.run. A failing `fn` does not block the work queued after it. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(() => fn());
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Whether work is running or queued for `key`. */
  isLocked(key: string): boolean {
    return this.tails.has(key);
  }
}

/**
 * The same lock under another name: `run(id)` of the view is `run(prefix + id)` of the
 * lock, so one lock implementation (in-process or PostgreSQL advisory) serves two kinds
 * of turn per workspace that must not wait for each other.
 */
export function lockNamed(lock: WorkspaceLock, prefix: string): WorkspaceLock {
  return { run: (key, fn) => lock.run(`${prefix}${key}`, fn) };
}

/** Runs `fn` holding `outer`, then `inner`, for the same key: always in that order, so no cycle. */
export function bothLocks(outer: WorkspaceLock, inner: WorkspaceLock): WorkspaceLock {
  return { run: (key, fn) => outer.run(key, () => inner.run(key, fn)) };
}
