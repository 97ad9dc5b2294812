/**
 * RATE_LIMITS: an operator raises, lowers or turns off a bucket, and the server counts
 * and refuses accordingly; a mistyped entry stops the start with a message naming it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, configFrom } from '../../src/config.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';

describe('RATE_LIMITS', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function searches(env: Record<string, string>, count: number) {
    server = await startServer({ env });
    const owner = await registerUser(server);
    const ws = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    const answers = [];
    for (let i = 0; i < count; i++) {
      answers.push(
        await server.request('GET', `/api/v1/workspaces/${ws.id}/search?q=x`, { token: owner.token }),
      );
    }
    return answers;
  }

  it('lowers a bucket to the limit and window given', async () => {
    const answers = await searches({ RATE_LIMITS: 'search=2/1m, contentWrite=600' }, 3);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('2');
    expect(answers[2]!.body.error).toBe('RATE_LIMITED');
  });

  it('turns a bucket off: never refused, no limit headers', async () => {
    const answers = await searches({ RATE_LIMITS: 'search=off' }, 70);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe(null);
  });

  it('refuses to start with an entry it cannot read, naming it', () => {
    for (const [value, said] of [
      ['serch=5', '"serch" is not a bucket'],
      ['search=lots', '"search=lots" is not bucket=limit'],
      ['search=5/1w', '"search=5/1w" is not bucket=limit'],
    ]) {
      let error: unknown;
      try {
        configFrom({ RATE_LIMITS: value });
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems[0], value).toContain(`RATE_LIMITS: ${said}`);
    }
  });
});
