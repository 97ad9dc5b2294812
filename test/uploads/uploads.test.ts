import fs from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CSP } from '../../src/http/security.js';
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
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(data, name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

describe('uploads', () => {
  let server: TestServer;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let ws: TestWorkspace;
  let uploadsDir: string;

  /** POSTs one multipart file (field `file` unless told otherwise). */
  async function upload(user: TestUser | null, data: Buffer | string, filename: string, field = 'file') {
    const form = new FormData();
    form.append(field, new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), filename);
    const res = await fetch(`${server.url}/api/v1/content/${ws.slug}/uploads`, {
      method: 'POST',
      body: form,
      headers: user ? { authorization: `Bearer ${user.token}` } : {},
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  async function download(user: TestUser | null, url: string) {
    const res = await fetch(server.url + url, {
      headers: user ? { authorization: `Bearer ${user.token}` } : {},
    });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  const storedFiles = () => (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir).sort() : []);

  beforeAll(async () => {
    server = await startServer({
      beforeListen: (folio) => {
        // Proves the router's precedence even before the content routes are registered:
        // a catch-all like theirs must not take the uploads paths.
        for (const method of ['GET', 'POST'] as const) {
          if (!folio.app.hasRoute({ method, url: '/api/v1/content/:workspace/*' })) {
            folio.app.route({
              method,
              url: '/api/v1/content/:workspace/*',
              handler: async (_r, reply) => reply.code(418).send(),
            });
          }
        }
      },
    });
    [owner, viewer, outsider] = [
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
    ];
    ws = await createWorkspace(server, owner, 'assets');
    await grantRole(server, ws, viewer, 'viewer');
    uploadsDir = path.join(server.dataDir, 'workspaces', ws.id, 'uploads');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores a PNG and serves it back byte-identical with its type', async () => {
    const res = await upload(owner, PNG, 'My Diagram.PNG');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      path: 'uploads/my-diagram.png',
      url: `/api/v1/content/${ws.slug}/uploads/my-diagram.png`,
      filename: 'my-diagram.png',
      size: PNG.length,
      content_type: 'image/png',
    });
    expect(fs.readFileSync(path.join(uploadsDir, 'my-diagram.png')).equals(PNG)).toBe(true);

    const got = await download(viewer, res.body.url);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(PNG)).toBe(true);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toMatch(/^inline; filename="my-diagram.png"/);
    expect(got.headers.get('content-security-policy')).toBe(UPLOAD_CSP);
  });

  it('never overwrites: a second file of the same name gets a new one', async () => {
    const res = await upload(owner, PNG, 'my diagram.png');
    expect(res.status).toBe(201);
    expect(res.body.filename).toBe('my-diagram-2.png');
    expect(storedFiles()).toEqual(expect.arrayContaining(['my-diagram.png', 'my-diagram-2.png']));
  });

  it('stores HTML bytes named .png as the text they are, and never serves them as HTML', async () => {
    const html =
      '<!doctype html><html><body><script>document.location="https://evil.test"</script></body></html>';
    const res = await upload(owner, html, 'innocent.png');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ filename: 'innocent.txt', content_type: 'text/plain' });
    const got = await download(owner, res.body.url);
    expect(got.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(got.headers.get('content-type')).not.toMatch(/html/);
    expect(got.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(got.bytes.toString()).toBe(html);
  });

  it('serves an SVG under the sandbox policy', async () => {
    const res = await upload(owner, SVG, 'logo.svg');
    expect(res.body).toMatchObject({ filename: 'logo.svg', content_type: 'image/svg+xml' });
    const got = await download(owner, res.body.url);
    expect(got.headers.get('content-type')).toBe('image/svg+xml');
    expect(got.headers.get('content-security-policy')).toBe(UPLOAD_CSP);
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('accepts PDF, plain text and a normal ZIP; keeps a truthful extension', async () => {
    const pdf = await upload(owner, Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 'spec.pdf');
    expect(pdf.body).toMatchObject({ filename: 'spec.pdf', content_type: 'application/pdf' });
    expect((await download(owner, pdf.body.url)).headers.get('content-disposition')).toMatch(/^inline/);
    const csv = await upload(owner, 'a,b\n1,2\n', 'data.csv');
    expect(csv.body).toMatchObject({ filename: 'data.csv', content_type: 'text/plain' });
    const zip = await upload(owner, await zipOf({ 'a.txt': Buffer.from('hello') }), 'bundle.zip');
    expect(zip.status).toBe(201);
    expect((await download(owner, zip.body.url)).headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('refuses a zip bomb with 400 and keeps nothing on disk', async () => {
    const before = storedFiles();
    const bomb = await zipOf({ 'zeros.bin': Buffer.alloc(20 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(100 * 1024);
    const res = await upload(owner, bomb, 'harmless.zip');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'file' } });
    expect(storedFiles()).toEqual(before);
    expect(fs.readdirSync(uploadsDir).some((n) => n.startsWith('.'))).toBe(false);
  });

  it('refuses types it does not know and empty files', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]);
    for (const [data, name] of [
      [elf, 'tool.png'],
      [Buffer.alloc(0), 'empty.txt'],
    ] as const) {
      const res = await upload(owner, data, name);
      expect(res.status, name).toBe(400);
      expect(res.body.details.field).toBe('file');
    }
  });

  it('answers 413 above 10 MB', async () => {
    const before = storedFiles();
    const res = await upload(owner, Buffer.alloc(10 * 1024 * 1024 + 1, 0x61), 'big.txt');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect(storedFiles()).toEqual(before);
  });

  it('refuses a viewer with 403 and hides the workspace from an outsider', async () => {
    const before = storedFiles();
    const asViewer = await upload(viewer, PNG, 'v.png');
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.error).toBe('FORBIDDEN');
    const asOutsider = await upload(outsider, PNG, 'o.png');
    expect(asOutsider.status).toBe(404);
    expect((await download(outsider, `/api/v1/content/${ws.slug}/uploads/my-diagram.png`)).status).toBe(404);
    expect((await upload(null, PNG, 'a.png')).status).toBe(401);
    expect((await download(null, `/api/v1/content/${ws.slug}/uploads/my-diagram.png`)).status).toBe(401);
    expect(storedFiles()).toEqual(before);
  });

  it('rejects requests without a proper file part', async () => {
    const wrongField = await upload(owner, PNG, 'a.png', 'attachment');
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.details.field).toBe('file');
    const json = await server.request('POST', `/api/v1/content/${ws.slug}/uploads`, {
      token: owner.token,
      body: {},
    });
    expect(json.status).toBe(400);
  });

  it('serves back a file under the longest name it stores', async () => {
    const longName = `${'n'.repeat(150)}.txt`;
    for (const expected of [`${'n'.repeat(100)}.txt`, `${'n'.repeat(100)}-2.txt`]) {
      const res = await upload(owner, 'long names are fine', longName);
      expect(res.status).toBe(201);
      expect(res.body.filename).toBe(expected);
      const got = await download(viewer, res.body.url);
      expect(got.status).toBe(200);
      expect(got.bytes.toString()).toBe('long names are fine');
    }
  });

  it('answers a multipart body without a boundary or cut off mid-part with 400, storing nothing', async () => {
    const before = storedFiles();
    const send = (contentType: string, body: string) =>
      server.request('POST', `/api/v1/content/${ws.slug}/uploads`, {
        token: owner.token,
        body,
        headers: { 'content-type': contentType },
      });
    const part = '--XX\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n\r\n';
    for (const [contentType, body] of [
      ['multipart/form-data', 'no boundary here'],
      ['multipart/form-data; boundary=XX', `${part}hello`],
      ['multipart/form-data; boundary=XX', part.slice(0, 30)],
    ] as const) {
      const res = await send(contentType, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'file' } });
    }
    expect(storedFiles()).toEqual(before);
  });

  it('serves only plain names inside uploads/', async () => {
    fs.writeFileSync(path.join(uploadsDir, '.folio-tmp-123'), 'partial');
    for (const name of [
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '..%2F.folio%2Fworkspace.json',
      '.folio-tmp-123',
      'missing.png',
    ]) {
      const res = await download(owner, `/api/v1/content/${ws.slug}/uploads/${name}`);
      expect(res.status, name).toBe(404);
    }
  });

  it('records upload_created in the activity feed', async () => {
    const res = await server.request('GET', `/api/v1/workspaces/${ws.id}/activity?action=upload_created`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    const paths = res.body.data.map((a: { path: string }) => a.path);
    expect(paths).toEqual(expect.arrayContaining(['uploads/my-diagram.png', 'uploads/innocent.txt']));
    expect(res.body.data[0]).toMatchObject({ action: 'upload_created', actor: owner.id });
  });
});
