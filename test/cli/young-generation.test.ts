/**
 * Plain `node bin/folio.js serve` (no V8 flags) lets V8's young generation grow while the
 * bundle loads, then stops it at 4 MB a half (src/cli/young-generation.ts): read from
 * V8's own figure on /metrics, after the start and again after a few hundred saves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverProcess, type ServerProcess } from '../helpers/server-process.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';

const MB = 1024 * 1024;
/** Both halves at their most: 4 MB each, and the page V8 may round up by. */
const MOST_BYTES = 2 * 4 * MB + 256 * 1024;

describe("plain node's young generation", () => {
  let folio: ServerProcess;
  let owner: TestUser;

  beforeAll(async () => {
    folio = await serverProcess({ env: { FF_METRICS: 'true' } });
    await folio.start();
    owner = await registerUser(folio);
  }, 120_000);

  afterAll(async () => {
    await folio?.stop();
  });

  /** V8's new space, both halves, as prom-client reports it. */
  async function newSpaceBytes(): Promise<number> {
    const metrics = await folio.request('GET', '/metrics', { token: owner.token });
    expect(metrics.status).toBe(200);
    const line = /^folio_nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)$/m.exec(metrics.text);
    expect(line, 'the new space figure on /metrics').not.toBeNull();
    return Number(line![1]);
  }

  it('grows past its initial 1 MB while the bundle loads, and stops at 4 MB', async () => {
    const started = await newSpaceBytes();
    expect(started).toBeGreaterThan(2 * MB + 256 * 1024);
    expect(started).toBeLessThanOrEqual(MOST_BYTES);
  });

  it('does not grow under load', async () => {
    const workspace = await firstWorkspace(folio, owner);
    // Large enough pages that what the saves leave alive would have doubled it twice.
    const body = `# Load\n\n${'Words that a writer saved. '.repeat(4_000)}\n`;
    for (let batch = 0; batch < 20; batch++) {
      const saves = Array.from({ length: 20 }, (_, i) =>
        folio.request('POST', `/api/v1/content/${workspace.slug}/load/${batch}-${i}`, {
          token: owner.token,
          body: { title: `Load ${batch}-${i}`, body },
        }),
      );
      for (const save of await Promise.all(saves)) expect(save.status).toBe(201);
    }
    expect(await newSpaceBytes()).toBeLessThanOrEqual(MOST_BYTES);
  }, 120_000);
});
