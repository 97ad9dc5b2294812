/**
 * Runs `pass` one at a time, for workers that drain a queue kept in the database. A call
 * made while a pass runs shares it and asks for one more pass after it: what the running
 * pass read may predate the reason for the call (a row enqueued meanwhile). `run` resolves
 * when no pass is left, and rejects when the last pass failed.
 */
export function coalescedRuns(pass: () => Promise<void>) {
  let running: Promise<void> | null = null;
  let again = false;
  let halted = false;

  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    // Started on the next tick, so a call the pass makes itself finds this run under way.
    running = Promise.resolve()
      .then(async () => {
        for (;;) {
          again = false;
          try {
            await pass();
          } catch (error) {
            if (!again || halted) throw error;
          }
          if (!again || halted) return;
        }
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    run,
    /** Lets the pass under way finish and asks for no further one; resolves once it has. */
    async halt(): Promise<void> {
      halted = true;
      await running?.catch(() => undefined);
    },
    /** Passes follow calls again after a `halt`. */
    resume(): void {
      halted = false;
    },
  };
}
