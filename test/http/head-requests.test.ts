/**
 * HEAD requests: answered by the GET route of their path (src/http/head-requests.ts), with
 * the GET response's status and headers and no body on the wire.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

/** Sends one raw request and returns every byte the server wrote before closing. */
function rawExchange(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(head));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

const HEAD_ONLY = (path: string) => `HEAD ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`;

describe('HEAD requests', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('answers with the GET route’s status and headers, and no body', async () => {
    const get = await fetch(`${server.url}/api/health`);
    const body = await get.text();
    const head = await fetch(`${server.url}/api/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(head.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/);

    const wire = await rawExchange(server.url, HEAD_ONLY('/api/health'));
    const [status, rest] = [wire.slice(0, wire.indexOf('\r\n')), wire.slice(wire.indexOf('\r\n\r\n') + 4)];
    expect(status).toBe('HTTP/1.1 200 OK');
    expect(wire).toMatch(new RegExp(`\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`, 'i'));
    expect(rest).toBe('');
  });

  it('answers as GET would for routes that refuse or do not exist', async () => {
    const refused = await fetch(`${server.url}/api/v1/workspaces`, { method: 'HEAD' });
    expect(refused.status).toBe((await fetch(`${server.url}/api/v1/workspaces`)).status);
    expect(refused.status).toBe(401);
    const missing = await fetch(`${server.url}/api/v1/no-such-route`, { method: 'HEAD' });
    expect(missing.status).toBe(404);
    const wire = await rawExchange(server.url, HEAD_ONLY('/api/v1/no-such-route'));
    expect(wire.startsWith('HTTP/1.1 404 ')).toBe(true);
    expect(wire.slice(wire.indexOf('\r\n\r\n') + 4)).toBe('');
  });

  it('adds no HEAD route to the route table', () => {
    const table = server.folio.app.routeTable;
    expect(table.some((r) => r.method === 'GET')).toBe(true);
    expect(table.filter((r) => r.method === 'HEAD')).toEqual([]);
  });
});
