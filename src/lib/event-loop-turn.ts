/**
 * Lets the rest of the event loop run before going on: due timers, waiting I/O (other
 * requests) and other immediates.
 *
 * One `setImmediate` is not enough when called from an I/O callback (a file read, a
 * request arriving): the callback runs in libuv's poll phase, and an immediate queued there
 * runs in the check phase of the same iteration, before any timer and before the next poll.
 * Work split that way still holds the loop as one block. The second immediate is queued
 * from the check phase, so it runs only after a whole iteration (timers, then poll) has had
 * its turn; from anywhere else the two cost a few microseconds more than one.
 */
export async function nextLoopTurn(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => setImmediate(resolve));
}
