import { describe, expect, it } from 'vitest';
import { KeyedLock, type WorkspaceLock } from './lock.js';

const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('KeyedLock', () => {
  it('runs work for one key strictly one after another, in order', async () => {
    const lock: WorkspaceLock = new KeyedLock();
    const log: string[] = [];
    let active = 0;
    const job = (name: string) => async () => {
      active++;
      expect(active).toBe(1);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      active--;
      return name;
    };
    const results = await Promise.all([
      lock.run('ws1', job('a')),
      lock.run('ws1', job('b')),
      lock.run('ws1', job('c')),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets different keys run concurrently', async () => {
    const lock = new KeyedLock();
    let release!: () => void;
    const blocker = new Promise<void>((r) => (release = r));
    const slow = lock.run('ws1', () => blocker);
    const fast = await lock.run('ws2', async () => 'done');
    expect(fast).toBe('done');
    expect(lock.isLocked('ws1')).toBe(true);
    release();
    await slow;
  });

  it('propagates a failure to its caller without blocking later work, and forgets idle keys', async () => {
    const lock = new KeyedLock();
    const failed = lock.run('ws', async () => {
      throw new Error('boom');
    });
    const syncThrow = lock.run('ws', () => {
      throw new Error('sync boom');
    });
    const next = lock.run('ws', async () => 42);
    await expect(failed).rejects.toThrow('boom');
    await expect(syncThrow).rejects.toThrow('sync boom');
    expect(await next).toBe(42);
    await tick(0);
    expect(lock.isLocked('ws')).toBe(false);
  });
});
