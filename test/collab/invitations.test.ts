import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { AppError } from '../../src/errors.js';
import { describeEachDatabase, databaseTargets } from '../helpers/databases.js';
import type { TestServer } from '../helpers/server.js';
import { mailText, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { firstWorkspace, joinWithLink, startCollab } from './collab-helpers.js';

describeEachDatabase('invitations with mail ($name)', (target) => {
  const clock = manualClock(new Date());
  let smtp: TestSmtp;
  let ctx: Awaited<ReturnType<typeof startCollab>>;
  let server: TestServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };

  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await startCollab(target, {
      clock,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://docs.example.test' },
    });
    server = ctx.server;
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
  });
  afterAll(async () => {
    await ctx.cleanup();
    await smtp.close();
  });

  const invite = (body: unknown, token = owner.token) =>
    server.request('POST', `/api/v1/workspaces/${ws.id}/invitations`, { token, body });

  /** The token of the next invitation mail to `email`. */
  async function mailedToken(email: string): Promise<string> {
    const mail = await smtp.next();
    expect(mail.to).toEqual([email]);
    const text = mailText(mail);
    const match = /https:\/\/docs\.example\.test\/invite\/([\w-]+)/.exec(text);
    expect(match).not.toBeNull();
    return match![1]!;
  }

  it('mails an editor invitation; the invitee accepts and can then write pages', async () => {
    const email = `editor-${Date.now()}@example.com`;
    const created = await invite({ email, role: 'editor' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, role: 'editor' });
    expect(Object.keys(created.body).sort()).toEqual([
      'accept_url',
      'created_at',
      'email',
      'expires_at',
      'id',
      'role',
    ]);
    expect(Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)).toBe(
      7 * 24 * 3600 * 1000,
    );
    const token = await mailedToken(email);
    // With mail configured the token travels only in the mail.
    expect(created.text).not.toContain(token);
    const row = await server.folio.store.db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);

    const listed = await server.request('GET', `/api/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((i: { id: string }) => i.id)).toContain(created.body.id);
    expect(listed.body.next_cursor).toBeNull();

    const invitee = await registerUser(server, { email });
    const before = await server.request('POST', `/api/v1/content/${ws.slug}/invited/page`, {
      token: invitee.token,
      body: { title: 'Nope' },
    });
    expect(before.status).toBe(404);

    const accepted = await server.request('POST', '/api/auth/invitations/accept', {
      token: invitee.token,
      body: { token },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ workspace_id: ws.id, role: 'editor' });

    const write = await server.request('POST', `/api/v1/content/${ws.slug}/invited/page`, {
      token: invitee.token,
      body: { title: 'Written by the invitee' },
    });
    expect(write.status).toBe(201);

    // One use only; and no longer pending.
    const again = await server.request('POST', '/api/auth/invitations/accept', {
      token: invitee.token,
      body: { token },
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('VALIDATION_ERROR');
    const after = await server.request('GET', `/api/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
    });
    expect(after.body.data.map((i: { id: string }) => i.id)).not.toContain(created.body.id);

    const activity = await server.request('GET', `/api/v1/workspaces/${ws.id}/activity?action=member_added`, {
      token: owner.token,
    });
    expect(activity.body.data[0]).toMatchObject({ action: 'member_added', actor: invitee.id });
    expect(activity.body.data[0].details).toMatchObject({
      user_id: invitee.id,
      role: 'editor',
      via: 'invitation',
    });
  });

  it('refuses another user (403), a revoked invitation (400) and an unknown token (400)', async () => {
    const email = `other-${Date.now()}@example.com`;
    expect((await invite({ email, role: 'viewer' })).status).toBe(201);
    const token = await mailedToken(email);
    const stranger = await registerUser(server);
    const wrong = await server.request('POST', '/api/auth/invitations/accept', {
      token: stranger.token,
      body: { token },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('FORBIDDEN');

    const revokedEmail = `revoked-${Date.now()}@example.com`;
    const created = await invite({ email: revokedEmail, role: 'viewer' });
    const revokedToken = await mailedToken(revokedEmail);
    const del = await server.request('DELETE', `/api/v1/workspaces/${ws.id}/invitations/${created.body.id}`, {
      token: owner.token,
    });
    expect(del.status).toBe(204);
    const revokedUser = await registerUser(server, { email: revokedEmail });
    const revoked = await server.request('POST', '/api/auth/invitations/accept', {
      token: revokedUser.token,
      body: { token: revokedToken },
    });
    expect(revoked.status).toBe(400);
    const unknown = await server.request('POST', '/api/auth/invitations/accept', {
      token: revokedUser.token,
      body: { token: 'no-such-token' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'VALIDATION_ERROR', request_id: expect.any(String) });
    expect((await server.request('POST', '/api/auth/invitations/accept', { body: { token } })).status).toBe(
      401,
    );
  });

  it('never invites above the inviter’s own role, and only admins invite', async () => {
    const admin = await registerUser(server);
    await joinWithLink(server, owner, ws.id, admin, 'admin');
    const above = await invite({ email: 'boss@example.com', role: 'superadmin' }, admin.token);
    expect(above.status).toBe(403);
    expect(above.body.error).toBe('FORBIDDEN');
    expect(
      (await invite({ email: `peer-${Date.now()}@example.com`, role: 'admin' }, admin.token)).status,
    ).toBe(201);
    await smtp.next();

    const editor = await registerUser(server);
    await joinWithLink(server, owner, ws.id, editor, 'editor');
    expect((await invite({ email: 'x@example.com', role: 'viewer' }, editor.token)).status).toBe(403);
    const outsider = await registerUser(server);
    expect((await invite({ email: 'x@example.com', role: 'viewer' }, outsider.token)).status).toBe(404);

    const bad = await invite({ email: 'not an email', role: 'editor' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.field).toBe('email');
    expect((await invite({ email: 'ok@example.com', role: 'owner' })).status).toBe(400);
  });

  it('asks the seat hook for editors and admins: 403 PLAN_LIMIT_REACHED when refused', async () => {
    const asked: string[] = [];
    const limits = server.folio.services.planLimits;
    const original = limits.requireSeat;
    limits.requireSeat = async (_org, role) => {
      asked.push(role);
      throw new AppError('PLAN_LIMIT_REACHED', 'Every seat of the plan is taken');
    };
    try {
      const full = await invite({ email: `seat-${Date.now()}@example.com`, role: 'editor' });
      expect(full.status).toBe(403);
      expect(full.body.error).toBe('PLAN_LIMIT_REACHED');
      // Viewers and commenters take no seat.
      expect((await invite({ email: `reader-${Date.now()}@example.com`, role: 'viewer' })).status).toBe(201);
      await smtp.next();
      expect(asked).toEqual(['editor']);
    } finally {
      limits.requireSeat = original;
    }
  });

  // Last: it moves the clock a week on, past every access token issued so far.
  it('refuses an invitation after its 7 days (400)', async () => {
    const email = `late-${Date.now()}@example.com`;
    expect((await invite({ email, role: 'viewer' })).status).toBe(201);
    const token = await mailedToken(email);
    const invitee = await registerUser(server, { email });
    clock.advance(7 * 24 * 3600 * 1000 + 1000);
    const login = await server.request('POST', '/api/auth/login', {
      body: { email, password: invitee.password },
    });
    expect(login.status).toBe(200);
    const expired = await server.request('POST', '/api/auth/invitations/accept', {
      token: login.body.access_token,
      body: { token },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toMatch(/expired/);
  });
});

describe('invitations without mail', () => {
  let ctx: Awaited<ReturnType<typeof startCollab>>;
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    ctx = await startCollab(databaseTargets()[0]!);
    server = ctx.server;
    owner = await registerUser(server);
  });
  afterAll(() => ctx.cleanup());

  it('answers the token once so the admin can pass the link on; never again in the list', async () => {
    const ws = await firstWorkspace(server, owner);
    const email = `nomail-${Date.now()}@example.com`;
    const created = await server.request('POST', `/api/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
      body: { email, role: 'commenter' },
    });
    expect(created.status).toBe(201);
    expect(created.body.token).toEqual(expect.any(String));
    expect(created.body.accept_url).toContain(created.body.token);
    const listed = await server.request('GET', `/api/v1/workspaces/${ws.id}/invitations`, {
      token: owner.token,
    });
    expect(listed.text).not.toContain(created.body.token);

    const invitee = await registerUser(server, { email: email.toUpperCase() });
    const accepted = await server.request('POST', '/api/auth/invitations/accept', {
      token: invitee.token,
      body: { token: created.body.token },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.role).toBe('commenter');
  });
});
