/**
 * `PATCH /api/auth/me` over HTTP: a user renames themselves; the name is checked, nothing
 * else of the profile can be changed this way, and a read-only API key may not do it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser } from '../helpers/users.js';

describe('editing one’s profile', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('changes the name and answers the profile; refuses an empty name and other fields', async () => {
    const user = await registerUser(server, { name: 'Old Name' });
    const renamed = await server.request('PATCH', '/api/auth/me', {
      token: user.token,
      body: { name: '  Ada Lovelace ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Ada Lovelace', email: user.email });
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).body.name).toBe(
      'Ada Lovelace',
    );

    const empty = await server.request('PATCH', '/api/auth/me', { token: user.token, body: { name: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'name' } });

    const email = await server.request('PATCH', '/api/auth/me', {
      token: user.token,
      body: { name: 'Ada', email: 'someone@else.example' },
    });
    expect(email.status).toBe(400);
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).body).toMatchObject({
      name: 'Ada Lovelace',
      email: user.email,
    });

    expect((await server.request('PATCH', '/api/auth/me', { body: { name: 'Anon' } })).status).toBe(401);
  });

  it('needs the write scope on an API key', async () => {
    const user = await registerUser(server, { name: 'Key Holder' });
    const key = async (scopes: string[]) =>
      (
        await server.request('POST', '/api/v1/api-keys', {
          token: user.token,
          body: { name: scopes.join('+'), scopes },
        })
      ).body.key as string;
    const readOnly = await server.request('PATCH', '/api/auth/me', {
      token: await key(['read']),
      body: { name: 'Via read key' },
    });
    expect(readOnly.status).toBe(403);
    const writer = await server.request('PATCH', '/api/auth/me', {
      token: await key(['read', 'write']),
      body: { name: 'Via write key' },
    });
    expect(writer.status).toBe(200);
    expect(writer.body.name).toBe('Via write key');
  });
});
