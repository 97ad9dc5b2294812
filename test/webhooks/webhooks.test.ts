/**
 * Outbound webhooks over HTTP against a real receiver on loopback: admins define them,
 * deliveries are signed so a receiver can verify them, retried after a 500 and after a
 * time-out, kept in a delivery log, queued across a restart, checked against SSRF on
 * create and again at delivery, and redelivered on request.
 */
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { startServer, type StartOptions, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import { startReceiver, verifyFolioSignature } from './receiver.js';

/** Short waits, so retries happen within a test; the resolver answers from `dns`. */
const dns = new Map<string, string[]>();
const FAST = {
  timeoutMs: 500,
  retryBaseMs: 100,
  pollMs: 100,
  resolveHost: async (host: string) => dns.get(host) ?? [],
};

describeEachDatabase('outbound webhooks ($name)', (target: DatabaseTarget) => {
  let server: TestServer | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await receiver?.close();
    await cleanup?.();
    server = receiver = cleanup = undefined;
  });

  async function start(
    env: Record<string, string> = { WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true' },
    extra: StartOptions = {},
  ) {
    const db = await target.prepare();
    cleanup = db.cleanup;
    const options: StartOptions = {
      ...extra,
      env: { ...db.env, ...env },
      webhooks: { ...FAST, ...extra.webhooks },
      ...(db.pgSchema ? { pgSchema: db.pgSchema } : {}),
    };
    server = await startServer(options);
    const owner = await registerUser(server);
    const ws = (await server.request('GET', '/api/v1/workspaces', { token: owner.token })).body.data[0];
    return { owner, ws, options };
  }

  const hooks = (ws: { id: string }) => `/api/v1/workspaces/${ws.id}/webhooks`;
  const create = (owner: TestUser, ws: { id: string }, body: unknown) =>
    server!.request('POST', hooks(ws), { token: owner.token, body });
  const deliveries = async (owner: TestUser, ws: { id: string }, wid: string) =>
    (await server!.request('GET', `${hooks(ws)}/${wid}/deliveries`, { token: owner.token })).body
      .data as Array<{
      id: string;
      event: string;
      status: string;
      attempt: number;
      response_status: number | null;
      error: string | null;
      request_body: string;
    }>;

  it('lets admins define webhooks, shows the secret once, and refuses editors', async () => {
    receiver = await startReceiver();
    const { owner, ws } = await start();
    const made = await create(owner, ws, { url: receiver.url, events: ['page.updated'] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ url: receiver.url, events: ['page.updated'], active: true });
    expect(made.body.secret).toMatch(/^whsec_/);
    const listed = await server!.request('GET', hooks(ws), { token: owner.token });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: made.body.id })]);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.secret);

    const unknown = await create(owner, ws, { url: receiver.url, events: ['page.exploded'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('VALIDATION_ERROR');

    const editor = await registerUser(server!);
    await grantRole(server!, ws, editor, 'editor');
    expect((await server!.request('GET', hooks(ws), { token: editor.token })).status).toBe(403);
    expect((await create(editor, ws, { url: receiver.url, events: ['page.updated'] })).status).toBe(403);

    const updated = await server!.request('PUT', `${hooks(ws)}/${made.body.id}`, {
      token: owner.token,
      body: { events: ['page.created', 'page.updated'], active: false },
    });
    expect(updated.body).toMatchObject({ events: ['page.created', 'page.updated'], active: false });
    const removed = await server!.request('DELETE', `${hooks(ws)}/${made.body.id}`, { token: owner.token });
    expect(removed.status).toBe(204);
    expect(
      (await server!.request('GET', `${hooks(ws)}/${made.body.id}`, { token: owner.token })).status,
    ).toBe(404);
  });

  it('sends a signed page.updated that the receiver verifies with the documented recipe', async () => {
    receiver = await startReceiver();
    const { owner, ws } = await start();
    const made = await create(owner, ws, { url: receiver.url, events: ['page.updated'] });
    await eventually(async () => receiver!.received.find((r) => r.headers['x-folio-event'] === 'ping'));

    const page = await server!.request('POST', `/api/v1/content/${ws.slug}/hooked.md`, {
      token: owner.token,
      body: { title: 'Hooked', body: 'One.\n' },
    });
    await server!.request('PUT', `/api/v1/content/${ws.slug}/hooked.md`, {
      token: owner.token,
      body: { body: 'Two.\n', lastKnownHash: page.body.content_hash },
    });
    const got = await eventually(async () =>
      receiver!.received.find((r) => r.headers['x-folio-event'] === 'page.updated'),
    );
    expect(verifyFolioSignature(made.body.secret, got.headers, got.body)).toBe(true);
    expect(verifyFolioSignature('whsec_wrong', got.headers, got.body)).toBe(false);
    expect(got.headers['x-folio-delivery']).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(JSON.parse(got.body)).toMatchObject({
      event: 'page.updated',
      workspace_id: ws.id,
      data: { path: 'hooked.md', actor: owner.id },
    });
    // page.created was not asked for.
    expect(receiver.received.some((r) => r.headers['x-folio-event'] === 'page.created')).toBe(false);
  });

  it('retries after a 500 and after a time-out, then succeeds, all in the delivery log', async () => {
    receiver = await startReceiver();
    const { owner, ws } = await start();
    receiver.answer(500, 'hang');
    const made = await create(owner, ws, { url: receiver.url, events: ['page.created'] });
    const log = await eventually(async () => {
      const rows = await deliveries(owner, ws, made.body.id);
      return rows[0]?.status === 'delivered' ? rows : null;
    });
    expect(log[0]).toMatchObject({ event: 'ping', status: 'delivered', attempt: 3, response_status: 200 });
    expect(receiver.received.filter((r) => r.headers['x-folio-event'] === 'ping')).toHaveLength(3);
    // One delivery id across its attempts, so a receiver can tell a retry from a new event.
    expect(new Set(receiver.received.map((r) => r.headers['x-folio-delivery'])).size).toBe(1);
  });

  it('sends after a restart what was queued before it', async () => {
    receiver = await startReceiver();
    const { owner, ws, options } = await start();
    const made = await create(owner, ws, { url: receiver.url, events: ['page.created'] });
    await eventually(async () => receiver!.received.length === 1);
    await receiver.close();

    await server!.request('POST', `/api/v1/content/${ws.slug}/queued.md`, {
      token: owner.token,
      body: { title: 'Queued', body: 'Waiting.\n' },
    });
    await eventually(async () => (await deliveries(owner, ws, made.body.id)).some((d) => d.error !== null));
    const dataDir = server!.dataDir;
    await server!.close();

    receiver = await startReceiver();
    // The receiver is back (on a new port): point the webhook at it, then restart Folio.
    server = await startServer({ ...options, dataDir });
    await server.request('PUT', `${hooks(ws)}/${made.body.id}`, {
      token: owner.token,
      body: { url: receiver.url },
    });
    const got = await eventually(async () =>
      receiver!.received.find((r) => r.headers['x-folio-event'] === 'page.created'),
    );
    expect(JSON.parse(got.body).data.path).toBe('queued.md');
  });

  it('refuses SSRF targets on create, and a name that later resolves to a private address at delivery', async () => {
    const { owner, ws } = await start({});
    for (const url of [
      'http://169.254.169.254/latest',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'http://example.com/',
    ]) {
      const refused = await create(owner, ws, { url, events: ['page.created'] });
      expect(refused.status, url).toBe(400);
      expect(refused.body.details).toEqual({ field: 'url' });
    }
    dns.set('hooks.example.test', ['93.184.216.34']);
    const made = await create(owner, ws, {
      url: 'https://hooks.example.test/in',
      events: ['page.created'],
      active: false,
    });
    expect(made.status).toBe(201);
    // The name now answers with a private address: the next delivery is refused, not sent.
    dns.set('hooks.example.test', ['10.0.0.5']);
    await server!.request('PUT', `${hooks(ws)}/${made.body.id}`, {
      token: owner.token,
      body: { active: true },
    });
    await server!.request('POST', `/api/v1/content/${ws.slug}/rebound.md`, {
      token: owner.token,
      body: { title: 'Rebound', body: 'Here.\n' },
    });
    const log = await eventually(async () => {
      const rows = await deliveries(owner, ws, made.body.id);
      return rows[0]?.error ? rows : null;
    });
    expect(log[0]!.error).toMatch(/private/);
    expect(log[0]!.response_status).toBe(null);
  });

  it('redelivers a logged delivery as a new one with the same event and data', async () => {
    receiver = await startReceiver();
    const { owner, ws } = await start();
    const made = await create(owner, ws, { url: receiver.url, events: ['page.created'] });
    const [ping] = await eventually(async () => {
      const rows = await deliveries(owner, ws, made.body.id);
      return rows[0]?.status === 'delivered' ? rows : null;
    });
    const again = await server!.request(
      'POST',
      `${hooks(ws)}/${made.body.id}/deliveries/${ping!.id}/redeliver`,
      {
        token: owner.token,
      },
    );
    expect(again.status).toBe(202);
    expect(again.body.id).not.toBe(ping!.id);
    await eventually(async () => receiver!.received.length === 2);
    const [first, second] = receiver.received.map((r) => JSON.parse(r.body));
    expect(second.event).toBe('ping');
    expect(second.data).toEqual(first.data);
    const missing = await server!.request('POST', `${hooks(ws)}/${made.body.id}/deliveries/nope/redeliver`, {
      token: owner.token,
    });
    expect(missing.status).toBe(404);
  });

  it('turns off a webhook whose deliveries keep failing, and says why', async () => {
    receiver = await startReceiver();
    // Every answer a 500; "three days" shortened to a moment.
    receiver.answer(...Array<number>(50).fill(500));
    const { owner, ws } = await start(undefined, {
      webhooks: { deactivateAfterMs: 300, retryForMs: 60_000 },
    });
    const made = await create(owner, ws, { url: receiver.url, events: ['page.created'] });
    const off = await eventually(async () => {
      const res = await server!.request('GET', `${hooks(ws)}/${made.body.id}`, { token: owner.token });
      return res.body.active === false ? res.body : null;
    });
    expect(off.deactivated_reason).toMatch(/500/);
    // Turning it on again clears the reason.
    const on = await server!.request('PUT', `${hooks(ws)}/${made.body.id}`, {
      token: owner.token,
      body: { active: true },
    });
    expect(on.body).toMatchObject({ active: true, deactivated_reason: null });
  });
});
