/**
 * A frontmatter change through PUT keeps the author's YAML: only the named keys'
 * values change; comments, key order, quoting, CRLF line endings and a byte-order
 * mark survive, and the body is untouched.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { firstWorkspace, registerUser, type TestUser } from '../helpers/users.js';
import type { TestWorkspace } from '../helpers/workspace-access.js';

const FILE =
  '\uFEFF---\r\n' +
  '# Kept by hand\r\n' +
  'id: 01HZY3K8Q6W3N6V0E4M2B7C9DF\r\n' +
  "title: 'Fidelity: quoted'\r\n" +
  'zeta: last\r\n' +
  'status: draft # not yet\r\n' +
  '---\r\n' +
  '\r\n' +
  'Body with trailing blanks  \r\n';

describe('PUT with frontmatter keeps the author YAML', () => {
  let server: TestServer;
  let owner: TestUser;
  let ws: TestWorkspace;

  beforeAll(async () => {
    server = await startServer();
    owner = await registerUser(server);
    ws = await firstWorkspace(server, owner);
  });
  afterAll(() => server.close());

  const file = () => readFileSync(path.join(server.dataDir, 'workspaces', ws.id, 'docs/fidelity.md'), 'utf8');

  it('changes only the value of the key it names', async () => {
    mkdirSync(path.join(server.dataDir, 'workspaces', ws.id, 'docs'), { recursive: true });
    writeFileSync(path.join(server.dataDir, 'workspaces', ws.id, 'docs/fidelity.md'), FILE);
    const read = await server.request('GET', `/api/v1/content/${ws.slug}/docs/fidelity.md`, {
      token: owner.token,
    });
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('draft');

    const put = await server.request('PUT', `/api/v1/content/${ws.slug}/docs/fidelity.md`, {
      token: owner.token,
      body: { lastKnownHash: read.body.content_hash, frontmatter: { status: 'published' } },
    });
    expect(put.status).toBe(200);
    expect(put.body.status).toBe('published');
    expect(file()).toBe(FILE.replace('status: draft # not yet', 'status: published # not yet'));

    const again = await server.request('PUT', `/api/v1/content/${ws.slug}/docs/fidelity.md`, {
      token: owner.token,
      body: { lastKnownHash: put.body.content_hash, frontmatter: { description: 'Added', zeta: null } },
    });
    expect(again.status).toBe(200);
    expect(file()).toBe(
      FILE.replace('status: draft # not yet', 'status: published # not yet')
        .replace('zeta: last\r\n', '')
        .replace('---\r\n\r\n', 'description: Added\r\n---\r\n\r\n'),
    );
  });
});
