/**
 * Polls `check` every 50 ms until it answers something truthy, or throws after `ms`
 * (background work: commits, pushes, syncs, start-up reconciliation).
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
