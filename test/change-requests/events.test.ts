/**
 * Change-request events reach the three places other changes do: the WebSocket stream,
 * outbound webhooks (signed deliveries to a receiver on loopback) and the activity feed.
 */
import { afterEach, expect, it } from 'vitest';
import { describeEachDatabase, type DatabaseTarget } from '../helpers/databases.js';
import { eventually } from '../helpers/eventually.js';
import { registerUser } from '../helpers/users.js';
import { grantRole } from '../helpers/workspace-access.js';
import { WsClient, wsCookie } from '../collab/collab-helpers.js';
import { startReceiver } from '../webhooks/receiver.js';
import { type SyncEnv, startSync } from '../sync/sync-helpers.js';
import { caller, contentUrl, crUrl, editInRequest, openRequest } from './cr-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

describeEachDatabase('change-request events ($name)', (target: DatabaseTarget) => {
  let env: SyncEnv | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let socket: WsClient | undefined;
  afterEach(async () => {
    socket?.socket.close();
    await receiver?.close();
    await env?.cleanup();
    env = receiver = socket = undefined;
  });

  it('sends opened, reviewed, merged and closed over WebSocket, webhooks and the activity feed', async () => {
    env = await startSync(target, {
      env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true' },
      webhooks: { timeoutMs: 2000, retryBaseMs: 100, pollMs: 100 },
    });
    const owner = env.owner;
    const as = caller(env, owner);
    const ws = (await as('GET', '/api/v1/workspaces')).body.data[0];
    receiver = await startReceiver();
    const events = [
      'change_request.opened',
      'change_request.reviewed',
      'change_request.merged',
      'change_request.closed',
    ];
    const hook = await as('POST', `/api/v1/workspaces/${ws.id}/webhooks`, { url: receiver.url, events });
    expect(hook.status, hook.text).toBe(201);
    socket = await WsClient.connect(env.server, (await wsCookie(env.server, owner)).pair);
    expect((await socket.subscribe(ws.id)).type).toBe('subscribed');

    const reviewer = await registerUser(env.server, { name: 'Rae Reviewer' });
    await grantRole(env.server, ws, reviewer, 'editor');
    await openRequest(env, owner, ws.id, 'First');
    const welcome = (await as('GET', `/api/v1/content/${ws.slug}/tree`)).body.tree.find(
      (n: any) => n.type === 'page',
    );
    await editInRequest(env, owner, ws.slug, 1, welcome.path, 'Rewritten welcome.\n');
    const review = await caller(env, reviewer)('POST', crUrl(ws.id, '/1/reviews'), {
      verdict: 'approve',
      body: 'Yes',
    });
    expect(review.status).toBe(201);
    expect((await as('POST', crUrl(ws.id, '/1/merge'))).status).toBe(200);
    await openRequest(env, owner, ws.id, 'Second');
    expect((await as('POST', crUrl(ws.id, '/2/close'))).status).toBe(200);

    const seen = await socket.waitFor((m) => m.type === 'change-request-closed');
    expect(seen).toMatchObject({ workspace_id: ws.id, number: 2, actor: owner.id });
    const types = socket.messages.map((m) => m.type);
    for (const type of ['change-request-opened', 'change-request-reviewed', 'change-request-merged']) {
      expect(types).toContain(type);
    }
    expect(socket.messages.find((m) => m.type === 'change-request-reviewed')).toMatchObject({
      number: 1,
      verdict: 'approve',
      actor: reviewer.id,
    });

    const delivered = await eventually(async () => {
      const names = receiver!.received.map((r) => JSON.parse(r.body).event);
      return events.every((e) => names.includes(e)) ? names : null;
    });
    expect(delivered.filter((n: string) => n === 'change_request.opened')).toHaveLength(2);
    const merged = receiver.received
      .map((r) => JSON.parse(r.body))
      .find((b) => b.event === 'change_request.merged');
    expect(merged.data).toMatchObject({ number: 1, actor: owner.id });

    const feed = await as('GET', `/api/v1/workspaces/${ws.id}/activity?limit=50`);
    const actions = feed.body.data.map((a: any) => a.action);
    for (const action of [
      'change_request_opened',
      'change_request_reviewed',
      'change_request_merged',
      'change_request_closed',
      'page_updated',
    ]) {
      expect(actions).toContain(action);
    }
    expect((await as('GET', contentUrl(ws.slug, welcome.path))).body.content).toBe('Rewritten welcome.\n');
  }, 120_000);
});
