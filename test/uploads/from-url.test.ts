/**
 * `POST /api/v1/content/:workspace/uploads/from-url` against a real image server on
 * loopback. Loopback is refused by the SSRF check, so the server that fetches opts in with
 * WEBHOOK_ALLOW_PRIVATE_HOSTS as the webhook suite does; a second one, without it, refuses.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { createWorkspace, grantRole, type TestWorkspace } from '../helpers/workspace-access.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(
    '0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b6a4a00000000049454e44ae426082',
    'hex',
  ),
]);

describe('uploads from a URL', () => {
  let images: http.Server;
  let origin: string;
  let server: TestServer;
  let strict: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    images = http.createServer((req, res) => {
      if (req.url === '/img/Release%20Chart.png')
        res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else if (req.url === '/moved') res.writeHead(302, { location: '/img/Release%20Chart.png' }).end();
      else if (req.url === '/page.html')
        res.writeHead(200, { 'content-type': 'image/png' }).end('<html>hi</html>');
      else if (req.url === '/huge.png') {
        // No Content-Length: the limit must hold while the bytes stream in.
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG);
        const chunk = Buffer.alloc(1024 * 1024);
        for (let i = 0; i < 11; i++) res.write(chunk);
        res.end();
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true' } });
    [owner, viewer] = [await registerUser(server), await registerUser(server)];
    ws = await createWorkspace(server, owner, 'pasted');
    await grantRole(server, ws, viewer, 'viewer');
  });
  afterAll(async () => {
    await server?.close();
    await strict?.close();
    await new Promise((resolve) => images?.close(resolve));
  });

  const fromUrl = (s: TestServer, user: TestUser, slug: string, url: unknown) =>
    s.request('POST', `/api/v1/content/${slug}/uploads/from-url`, { token: user.token, body: { url } });

  it('fetches a PNG, following a redirect, and stores it byte-identical under the URL path name', async () => {
    const res = await fromUrl(server, owner, ws.slug, `${origin}/moved`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      path: 'uploads/release-chart.png',
      content_type: 'image/png',
      size: PNG.length,
    });
    const file = path.join(server.dataDir, 'workspaces', ws.id, 'uploads', 'release-chart.png');
    expect(fs.readFileSync(file).equals(PNG)).toBe(true);
  });

  it('refuses what is not an image, too large, a failing remote and a malformed body', async () => {
    const html = await fromUrl(server, owner, ws.slug, `${origin}/page.html`);
    expect(html.status).toBe(400);
    expect(html.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'url' } });
    expect(html.body.message).toMatch(/not an image/);

    const huge = await fromUrl(server, owner, ws.slug, `${origin}/huge.png`);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: 'VALIDATION_ERROR', message: expect.stringMatching(/10 MB/) });

    const missing = await fromUrl(server, owner, ws.slug, `${origin}/nothing.png`);
    expect(missing.status).toBe(502);
    expect(missing.body.message).toBe('The image server answered 404');

    const ftp = await fromUrl(server, owner, ws.slug, 'ftp://example.com/a.png');
    expect(ftp.status).toBe(400);
    const noUrl = await server.request('POST', `/api/v1/content/${ws.slug}/uploads/from-url`, {
      token: owner.token,
      body: { href: 'x' },
    });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.error).toBe('VALIDATION_ERROR');
    expect(fs.readdirSync(path.join(server.dataDir, 'workspaces', ws.id, 'uploads'))).toEqual([
      'release-chart.png',
    ]);
  });

  it('is for editors: a viewer gets 403', async () => {
    const res = await fromUrl(server, viewer, ws.slug, `${origin}/img/Release%20Chart.png`);
    expect(res.status).toBe(403);
  });

  it('answers 403 when the workspace keeps remote images as links, and the setting round-trips', async () => {
    const settings = `/api/v1/workspaces/${ws.id}/admin/settings`;
    expect((await server.request('GET', settings, { token: owner.token })).body.paste_remote_images).toBe(
      true,
    );
    const put = await server.request('PUT', settings, {
      token: owner.token,
      body: { paste_remote_images: false },
    });
    expect(put.body.paste_remote_images).toBe(false);
    expect((await server.request('GET', settings, { token: owner.token })).body.paste_remote_images).toBe(
      false,
    );
    const res = await fromUrl(server, owner, ws.slug, `${origin}/img/Release%20Chart.png`);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/paste_remote_images/);
    await server.request('PUT', settings, { token: owner.token, body: { paste_remote_images: true } });
  });

  it('without the private-hosts opt-in, refuses loopback, private and metadata addresses with 400', async () => {
    strict = await startServer();
    const admin = await registerUser(strict);
    const mine = await createWorkspace(strict, admin, 'strict');
    for (const url of [
      `${origin}/img/Release%20Chart.png`,
      'https://127.0.0.1/a.png',
      'https://10.0.0.8/a.png',
      'https://169.254.169.254/latest/meta-data',
      'https://localhost/a.png',
    ]) {
      const res = await fromUrl(strict, admin, mine.slug, url);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'url' } });
      expect(typeof res.body.request_id).toBe('string');
    }
  });
});
