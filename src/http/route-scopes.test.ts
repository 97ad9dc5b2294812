import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ownScope, registerRouteGroups } from './route-scopes.js';

describe('registerRouteGroups', () => {
  it('keeps a marked group’s hook to its own routes, and serves every group’s routes', async () => {
    const app = Fastify();
    await registerRouteGroups(app, [
      (scope) => void scope.get('/a', async () => ({ group: 'a' })),
      ownScope((scope) => {
        scope.addHook('onSend', async (_request, reply, payload) => {
          reply.header('x-hooked', 'yes');
          return payload;
        });
        scope.get('/b', async () => ({ group: 'b' }));
      }),
      (scope) => void scope.get('/c', async () => ({ group: 'c' })),
    ]);
    const answers = await Promise.all(['/a', '/b', '/c'].map((url) => app.inject({ url })));
    expect(answers.map((a) => a.json<{ group: string }>().group)).toEqual(['a', 'b', 'c']);
    expect(answers.map((a) => a.headers['x-hooked'] ?? null)).toEqual([null, 'yes', null]);
    await app.close();
  });

  it('refuses at start a group that would change a scope it shares, naming the call', async () => {
    const app = Fastify();
    await expect(
      registerRouteGroups(app, [
        (scope) => void scope.get('/a', async () => 'a'),
        (scope) => void scope.addHook('onRequest', async () => undefined),
      ]),
    ).rejects.toThrow(/called addHook.*ownScope/);
    await app.close().catch(() => undefined);
  });
});
