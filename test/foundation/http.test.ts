import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { parseInput } from '../../src/domain/validate.js';
import { startServer, type TestResponse, type TestServer } from '../helpers/server.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('HTTP foundation', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({
      rateLimits: { search: { limit: 3 } },
      beforeListen: (folio) => {
        // Routes that exercise the shared mechanisms the real routes rely on.
        folio.app.post('/api/test/echo', async (request) =>
          parseInput(z.object({ title: z.string().min(1) }), request.body),
        );
        folio.app.get('/api/test/boom', async () => {
          throw new Error('secret stack detail');
        });
        folio.app.get('/api/test/limited', { config: { rateLimit: 'search' } }, async () => ({ ok: true }));
        folio.app.get('/api/test/forbidden', async () => {
          throw new AppError('FORBIDDEN', 'nope');
        });
      },
    });
  });
  afterAll(() => server.close());

  it('answers /api/health with the package version', async () => {
    const res = await server.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: '0.1.0' });
    expect(res.headers.get('x-request-id')).toMatch(ULID);
  });

  it('reports every readiness check', async () => {
    const res = await server.request('GET', '/api/ready');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ready');
    expect(res.body.checks.database.status).toBe('ok');
    expect(res.body.checks.git).toMatchObject({ status: 'ok' });
    expect(res.body.checks.git.version).toMatch(/\d+\.\d+/);
    expect(res.body.checks.outbox).toEqual({ status: 'ok', backlog: 0 });
    expect(res.body.checks.disk.status).toMatch(/ok|warn/);
  });

  it('answers an unknown route with 404 in the error body', async () => {
    const res = await server.request('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'NOT_FOUND', message: expect.any(String) });
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.body.request_id).toMatch(ULID);
  });

  it('names the invalid field on 400', async () => {
    const res = await server.request('POST', '/api/test/echo', { body: { title: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_ERROR');
    expect(res.body.details.field).toBe('title');
    expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await server.request('POST', '/api/test/echo', { body: '{"title": ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_ERROR');
  });

  it('hides the fault of a 500 behind INTERNAL_ERROR', async () => {
    const res = await server.request('GET', '/api/test/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: 'INTERNAL_ERROR',
      message: 'An internal error occurred',
      request_id: res.headers.get('x-request-id'),
    });
    expect(res.text).not.toContain('secret stack detail');
    expect(res.text).not.toContain('at ');
  });

  it('maps an AppError to its status', async () => {
    const res = await server.request('GET', '/api/test/forbidden');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('FORBIDDEN');
  });

  it('refuses a body of 10 MB + 1 byte with 413 in the error body', async () => {
    const tenMb = 10 * 1024 * 1024;
    const json = JSON.stringify({ title: 'x'.repeat(tenMb - 11) });
    expect(json.length).toBe(tenMb + 1);
    const res = await server.request('POST', '/api/test/echo', { body: json });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('VALIDATION_ERROR');
    expect(res.body.request_id).toMatch(ULID);
  });

  it('accepts a body of exactly 10 MB', async () => {
    const tenMb = 10 * 1024 * 1024;
    const json = JSON.stringify({ title: 'x'.repeat(tenMb - 12) });
    expect(json.length).toBe(tenMb);
    const res = await server.request('POST', '/api/test/echo', { body: json });
    expect(res.status).toBe(200);
  });

  it('sends nosniff and an API content-security-policy on every response', async () => {
    for (const path of ['/api/health', '/api/nope', '/api/test/boom']) {
      const res = await server.request('GET', path);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
  });

  it('answers 429 with all four headers once a bucket is exhausted', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await server.request('GET', '/api/test/limited');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
    }
    const res = await server.request('GET', '/api/test/limited');
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('RATE_LIMITED');
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  /** The API's error body, its request id the one in X-Request-ID, and the API's headers. */
  const expectErrorBody = (res: Pick<TestResponse, 'status' | 'headers' | 'body'>, status: number) => {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.any(String) });
    expect(res.body.request_id).toMatch(ULID);
    expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  };

  it('answers a URL whose percent-escapes are not UTF-8 in the error body', async () => {
    for (const path of ['/api/v1/workspaces/%c0%ae', '/api/v1/content/docs/%c0%ae/%ff.md']) {
      const res = await server.request('GET', path);
      expectErrorBody(res, 400);
      expect(res.body.details).toEqual({ field: 'url' });
    }
  });

  it('answers a path parameter over the length limit with 414 in the error body', async () => {
    const res = await server.request('GET', `/api/v1/workspaces/${'a'.repeat(300)}`);
    expectErrorBody(res, 414);
    expect(res.body.details).toEqual({ field: 'url' });
  });

  it('answers oversized headers with 431 in the error body', async () => {
    const res = await server.request('GET', '/api/health', { headers: { 'x-padding': 'a'.repeat(20_000) } });
    expectErrorBody(res, 431);
  });

  it('answers a request that is not HTTP in the error body', async () => {
    const answer = await rawExchange(server.url, 'GET /api/health HTTP/1.1\r\nHost x\r\n\r\n');
    const [head = '', text = ''] = answer.split('\r\n\r\n');
    const headers = new Headers(
      head
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(': ', 2) as [string, string]),
    );
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expectErrorBody({ status: 400, headers, body: JSON.parse(text) }, 400);
  });
});

/** Writes `text` to the server as it is and answers everything it sends back before closing. */
function rawExchange(baseUrl: string, text: string): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('readiness when the database is gone', () => {
  it('answers 503 naming the failing check', async () => {
    const server = await startServer();
    try {
      await server.folio.store.close();
      const res = await server.request('GET', '/api/ready');
      expect(res.status).toBe(503);
      expect(res.body.status).toBe('unavailable');
      expect(res.body.checks.database.status).toBe('fail');
      expect(res.body.checks.git.status).toBe('ok');
    } finally {
      await server.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then refuses new connections', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const server = await startServer({
      beforeListen: (folio) => {
        folio.app.get('/api/test/slow', async () => {
          started();
          await gate;
          return { finished: true };
        });
      },
    });
    const inFlight = server.request('GET', '/api/test/slow');
    await begun;
    const closed = server.close();
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ finished: true });
    await closed;
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
  });
});
