import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { registerUser, type TestUser } from '../helpers/users.js';
import { fileIn, pageUrl, rawRequest, starterWorkspace } from './content-helpers.js';

/** Every file under `dir`, relative, skipping the database (which changes with every request). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => !/^folio\.db/.test(f) && fs.statSync(path.join(dir, f)).isFile())
    .sort();
}

describe('page paths are confined to the workspace', () => {
  let server: TestServer;
  let owner: TestUser;
  let ws: { id: string; slug: string };
  let outside: string;
  let before: { data: string[]; parent: string[]; workspace: string[] };

  beforeAll(async () => {
    // DATA_DIR one level down, so a climb out of it lands in a folder this test can inspect.
    outside = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'folio-paths-'));
    server = await startServer({
      dataDir: path.join(outside, 'data'),
      rateLimits: { contentWrite: { limit: 10_000 }, contentRead: { limit: 10_000 } },
    });
    owner = await registerUser(server);
    ws = await starterWorkspace(server, owner);
    before = {
      data: filesUnder(server.dataDir).filter((f) => !f.startsWith(path.join('workspaces', ws.id))),
      parent: fs.readdirSync(outside).sort(),
      workspace: filesUnder(fileIn(server, ws.id)),
    };
  });
  afterAll(() => server.close());

  const base = () => `/api/v1/content/${ws.slug}`;

  // Each lands outside the workspace (or hides in it) if taken literally.
  const hostile: Array<[string, string]> = [
    ['dot-dot', '../../evil'],
    ['dot-dot deep', 'a/../../../../evil'],
    ['encoded dot-dot', '%2e%2e/%2e%2e/evil'],
    ['encoded dot-dot, upper case', '%2E%2E/%2E%2E/%2E%2E/evil'],
    ['encoded slashes', '..%2f..%2fevil'],
    ['fully encoded', '%2e%2e%2f%2e%2e%2fevil'],
    ['absolute (double slash)', '/%2Fetc/evil'],
    ['absolute (encoded)', '%2F%2Fetc%2Fevil'],
    ['drive letter', 'C:/evil'],
    ['backslash', '..%5C..%5Cevil'],
    ['backslash inside', 'guides%5Cevil'],
    ['hidden file', '.evil'],
    ['git internals', '.git/config'],
    ['folio metadata', '.folio/workspace'],
    ['hidden folder', 'guides/.hidden/evil'],
    ['reserved: tree', 'tree/evil'],
    ['reserved: move', 'move'],
    ['reserved: uploads', 'uploads/evil'],
    ['reserved, any case', 'Reorder.md'],
    ['control character', 'evil%01name'],
    ['newline', 'evil%0Aname'],
    ['NUL', 'evil%00.md'],
    ['DEL', 'evil%7F'],
    ['forbidden characters', 'evil%3Fname'],
  ];

  it.each(hostile)('refuses %s on POST with 400 naming the path', async (_name, p) => {
    const res = await rawRequest(server, 'POST', `${base()}/${p}`, {
      token: owner.token,
      body: { title: 'Evil' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'path' } });
  });

  it.each(hostile)('refuses %s on GET, PUT, DELETE and as a move target', async (_name, p) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await rawRequest(server, method, `${base()}/${p}`, {
        token: owner.token,
        body: method === 'PUT' ? { body: 'x' } : undefined,
      });
      // `reserved: tree` on GET would be the tree route with a suffix: still not a page.
      expect([400, 404], `${method} ${res.text}`).toContain(res.status);
      expect(res.status).not.toBe(500);
    }
    const decoded = decodeURIComponent(p);
    const patch = await server.request('PATCH', pageUrl(ws.slug, 'index.md'), {
      token: owner.token,
      body: { new_path: decoded },
    });
    expect(patch.status, patch.text).toBe(400);
    expect(patch.body.details.field).toBe('path');
    const move = await server.request('POST', `${base()}/move`, {
      token: owner.token,
      body: { path: 'index.md', new_path: decoded },
    });
    expect(move.status).toBe(400);
  });

  it('accepts ordinary names, unicode included, and normalises them', async () => {
    const res = await server.request('POST', `${base()}/${encodeURIComponent('Café notes')}/v1.2 release`, {
      token: owner.token,
      body: { title: 'Release' },
    });
    expect(res.status).toBe(201);
    expect(res.body.path).toBe('Café notes/v1.2 release.md');
    expect(fs.existsSync(fileIn(server, ws.id, 'Café notes/v1.2 release.md'))).toBe(true);
    // One leading slash is a workspace-root path, not an absolute one.
    const rooted = await server.request('PATCH', pageUrl(ws.slug, 'Café notes/v1.2 release.md'), {
      token: owner.token,
      body: { new_path: '/rooted.md' },
    });
    expect(rooted.body.path).toBe('rooted.md');
    // Decoded once only: a double-encoded climb is a literal (odd but harmless) name inside the workspace.
    const literal = await rawRequest(server, 'POST', `${base()}/%252e%252e%252fevil`, {
      token: owner.token,
      body: { title: 'Odd' },
    });
    expect(literal.status).toBe(201);
    expect(literal.body.path).toBe('%2e%2e%2fevil.md');
  });

  it('refuses a symlink in the tree that points outside the workspace', async () => {
    fs.mkdirSync(path.join(outside, 'target'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'target'), fileIn(server, ws.id, 'linked'));
    const res = await server.request('POST', pageUrl(ws.slug, 'linked/evil.md'), {
      token: owner.token,
      body: { title: 'Evil' },
    });
    expect(res.status).toBe(400);
    expect(fs.readdirSync(path.join(outside, 'target'))).toEqual([]);
    fs.unlinkSync(fileIn(server, ws.id, 'linked'));
  });

  it('wrote nothing outside the workspace', () => {
    const data = filesUnder(server.dataDir).filter((f) => !f.startsWith(path.join('workspaces', ws.id)));
    expect(data).toEqual(before.data);
    expect(fs.readdirSync(outside).sort()).toEqual([...before.parent, 'target'].sort());
    const inside = filesUnder(fileIn(server, ws.id)).filter((f) => !before.workspace.includes(f));
    expect(inside.sort()).toEqual(['%2e%2e%2fevil.md', 'rooted.md']);
  });
});
