import { describe, expect, it } from 'vitest';
import { coalescedRuns } from './coalesced-runs.js';

/** A pass that waits until the test lets it finish. */
function gatedPasses() {
  const gates: Array<() => void> = [];
  let passes = 0;
  const pass = () =>
    new Promise<void>((resolve) => {
      passes += 1;
      gates.push(resolve);
    });
  const openNext = async () => {
    while (gates.length === 0) await new Promise((r) => setTimeout(r, 1));
    gates.shift()!();
  };
  const started = async (n: number) => {
    while (passes < n) await new Promise((r) => setTimeout(r, 1));
  };
  return { pass, openNext, started, count: () => passes };
}

describe('coalescedRuns', () => {
  it('runs one pass at a time, and calls made during a pass share one more', async () => {
    const gated = gatedPasses();
    const runs = coalescedRuns(gated.pass);
    const first = runs.run();
    // Calls made before the pass has begun are served by it; these come while it runs.
    expect(runs.run()).toBe(first);
    await gated.started(1);
    const second = runs.run();
    const third = runs.run();
    expect(second).toBe(first);
    expect(third).toBe(first);
    await gated.openNext();
    await gated.openNext();
    await first;
    expect(gated.count()).toBe(2);
  });

  it('starts no further pass once halted, and again after resume', async () => {
    const gated = gatedPasses();
    const runs = coalescedRuns(gated.pass);
    const running = runs.run();
    await gated.started(1);
    void runs.run();
    const halted = runs.halt();
    await gated.openNext();
    await halted;
    await running;
    expect(gated.count()).toBe(1);
    runs.resume();
    const next = runs.run();
    await gated.openNext();
    await next;
    expect(gated.count()).toBe(2);
  });

  it('rejects when the last pass fails, and runs the pass asked for after a failed one', async () => {
    let passes = 0;
    const runs = coalescedRuns(async () => {
      passes += 1;
      if (passes === 1) {
        void runs.run();
        throw new Error('first pass failed');
      }
    });
    await expect(runs.run()).resolves.toBeUndefined();
    expect(passes).toBe(2);
    const failing = coalescedRuns(async () => {
      throw new Error('always');
    });
    await expect(failing.run()).rejects.toThrow('always');
  });
});
