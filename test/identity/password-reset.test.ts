import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { runCli } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { mailText, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { registerUser } from '../helpers/users.js';

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const linkIn = (text: string) => /(http:\/\/\S+\/reset-password\?token=[\w-]+)/.exec(text)?.[1];

describe('password reset by mail', () => {
  const clock = manualClock(new Date());
  let smtp: TestSmtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({
      clock,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://docs.example.test' },
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('mails a one-time link that resets the password once and signs every session out', async () => {
    const user = await registerUser(server);
    const res = await server.request('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    expect(res.status).toBe(200);
    const mail = await smtp.next();
    expect(mail.to).toEqual([user.email]);
    const link = linkIn(mailText(mail));
    expect(link).toMatch(/^http:\/\/docs\.example\.test\/reset-password\?token=/);

    const reset = await server.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link!), new_password: 'a brand new secret' },
    });
    expect(reset.status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: 'a brand new secret' },
    });
    expect(login.status).toBe(200);

    const again = await server.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link!), new_password: 'yet another secret' },
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('VALIDATION_ERROR');
  });

  it('revokes every API key of the user and says so in the mail', async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    const createKey = (token: string) =>
      server.request('POST', '/api/v1/api-keys', { token, body: { name: 'CI' } });
    const key = (await createKey(user.token)).body.key;
    const othersKey = (await createKey(other.token)).body.key;
    expect((await server.request('GET', '/api/auth/me', { token: key })).status).toBe(200);

    await server.request('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    const text = mailText(await smtp.next());
    expect(text).toMatch(/revokes every API key/);
    const reset = await server.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(linkIn(text)!), new_password: 'taking it back' },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toMatch(/API key/);
    expect((await server.request('GET', '/api/auth/me', { token: key })).status).toBe(401);
    // Nobody else's keys are touched.
    expect((await server.request('GET', '/api/auth/me', { token: othersKey })).status).toBe(200);
  });

  it('refuses a link after one hour', async () => {
    const user = await registerUser(server);
    await server.request('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    const link = linkIn(mailText(await smtp.next()));
    clock.advance(60 * 60 * 1000 + 1000);
    const res = await server.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link!), new_password: 'too late now' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_ERROR');
  });

  it('answers 200 for an unknown address and sends nothing', async () => {
    const before = smtp.mails.length;
    const res = await server.request('POST', '/api/auth/forgot-password', {
      body: { email: 'ghost@example.com' },
    });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before);
  });

  it('applies the password policy to the new password', async () => {
    const user = await registerUser(server);
    await server.request('POST', '/api/auth/forgot-password', { body: { email: user.email } });
    const link = linkIn(mailText(await smtp.next()));
    const res = await server.request('POST', '/api/auth/reset-password', {
      body: { token: tokenOf(link!), new_password: 'short' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.field).toBe('new_password');
  });

  it('limits reset attempts to 5 per 15 minutes with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await server.request('POST', '/api/auth/reset-password', {
        body: { token: `bogus-${i}`, new_password: 'whatever long' },
        headers: { 'x-forwarded-for': '10.55.0.1' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('keeps answering 200 to forgot-password past the limit, silently sending nothing', async () => {
    const user = await registerUser(server);
    const ip = { 'x-forwarded-for': '10.56.0.1' };
    for (let i = 0; i < 5; i++) {
      const res = await server.request('POST', '/api/auth/forgot-password', {
        body: { email: user.email },
        headers: ip,
      });
      expect(res.status).toBe(200);
      await smtp.next();
    }
    const sixth = await server.request('POST', '/api/auth/forgot-password', {
      body: { email: user.email },
      headers: ip,
    });
    expect(sixth.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    await expect(smtp.next(300)).rejects.toThrow('no mail arrived');
  });
});

describe('password reset without mail', () => {
  it('sends nothing, queues nothing; the CLI prints a working link', async () => {
    const server = await startServer();
    try {
      const user = await registerUser(server);
      expect(
        (await server.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })).status,
      ).toBe(200);
      const ready = await server.request('GET', '/api/ready');
      expect(ready.body.checks.outbox.backlog).toBe(0);

      const cli = await runCli(['reset-password', '--email', user.email], { DATA_DIR: server.dataDir });
      expect(cli.code).toBe(0);
      const link = cli.stdout.trim();
      expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[\w-]+$/);
      const reset = await server.request('POST', '/api/auth/reset-password', {
        body: { token: tokenOf(link), new_password: 'from the command line' },
      });
      expect(reset.status).toBe(200);
      const login = await server.request('POST', '/api/auth/login', {
        body: { email: user.email, password: 'from the command line' },
      });
      expect(login.status).toBe(200);

      const unknown = await runCli(['reset-password', '--email', 'nobody@example.com'], {
        DATA_DIR: server.dataDir,
      });
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
    } finally {
      await server.close();
    }
  });
});
