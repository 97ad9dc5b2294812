import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../src/events/bus.js';
import { RedisBus } from '../../src/events/redis-bus.js';
import type { FolioEvent } from '../../src/events/types.js';
import { MemoryRateLimiter, RedisRateLimiter } from '../../src/ratelimit/limiter.js';
import { TEST_REDIS_URL } from '../helpers/databases.js';

describe('in-process event bus', () => {
  it('delivers typed events to type and catch-all listeners, and survives a failing listener', () => {
    const errors: unknown[] = [];
    const bus = new InProcessBus((error) => errors.push(error));
    const seen: FolioEvent[] = [];
    bus.on('page-created', () => {
      throw new Error('listener bug');
    });
    const off = bus.on('page-created', (event) => seen.push(event));
    bus.onAny((event) => seen.push(event));
    bus.emit('page-created', { workspace_id: 'w', path: 'a.md', actor: 'u' });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ type: 'page-created', payload: { path: 'a.md' } });
    expect(errors).toHaveLength(1);
    off();
    bus.emit('page-deleted', { workspace_id: 'w', path: 'a.md', actor: 'u' });
    expect(seen.map((e) => e.type)).toEqual(['page-created', 'page-created', 'page-deleted']);
  });
});

describe('in-process rate limiter', () => {
  it('counts a fixed window and starts a new one after it ends', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    const bucket = { limit: 2, windowMs: 1000 };
    expect((await limiter.hit('k', bucket)).remaining).toBe(1);
    expect((await limiter.hit('k', bucket)).allowed).toBe(true);
    expect((await limiter.hit('k', bucket)).allowed).toBe(false);
    expect((await limiter.hit('other', bucket)).allowed).toBe(true);
    now += 1000;
    expect((await limiter.hit('k', bucket)).allowed).toBe(true);
    await limiter.close();
  });
});

if (!TEST_REDIS_URL) console.warn('[folio tests] TEST_REDIS_URL is not set: Redis variants are skipped.');

describe.runIf(TEST_REDIS_URL)('Redis-backed shared state', () => {
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    a = new Redis(TEST_REDIS_URL!);
    b = new Redis(TEST_REDIS_URL!);
  });
  afterAll(() => {
    a.disconnect();
    b.disconnect();
  });

  it('shares a rate-limit window between two instances', async () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    const bucket = { limit: 3, windowMs: 10_000 };
    const one = new RedisRateLimiter(a);
    const two = new RedisRateLimiter(b);
    expect((await one.hit(key, bucket)).remaining).toBe(2);
    expect((await two.hit(key, bucket)).remaining).toBe(1);
    expect((await one.hit(key, bucket)).allowed).toBe(true);
    const refused = await two.hit(key, bucket);
    expect(refused.allowed).toBe(false);
    expect(refused.resetAt).toBeGreaterThan(Date.now());
  });

  it('carries an event emitted on one instance to listeners on another', async () => {
    const busA = await RedisBus.connect(a);
    const busB = await RedisBus.connect(b);
    const received = new Promise<FolioEvent>((resolve) => busB.on('page-moved', resolve));
    busA.emit('page-moved', { workspace_id: 'w', old_path: 'a.md', new_path: 'b.md', actor: 'u' });
    const event = await received;
    expect(event.payload).toEqual({ workspace_id: 'w', old_path: 'a.md', new_path: 'b.md', actor: 'u' });
    await busA.close();
    await busB.close();
  });
});
