import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { eachLimited } from './reconcile-files.js';

describe('eachLimited', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await eachLimited([...Array(20).keys()], 3, async (item, index) => {
      running++;
      most = Math.max(most, running);
      await sleep(item % 4);
      seen[index] = item;
      running--;
    });
    expect(most).toBe(3);
    expect(seen).toEqual([...Array(20).keys()]);
  });

  it('starts nothing after a failure and throws it only once all running work has stopped', async () => {
    const started: number[] = [];
    let finished = 0;
    const run = eachLimited([...Array(10).keys()], 3, async (item) => {
      started.push(item);
      if (item === 1) throw new Error('disk full');
      await sleep(20);
      finished++;
    });
    await expect(run).rejects.toThrow('disk full');
    expect(started).toEqual([0, 1, 2]);
    expect(finished).toBe(2);
  });
});
