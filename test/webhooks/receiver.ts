import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * The verification recipe of the README, as a receiver would write it: the signature is
 * HMAC-SHA256 of `timestamp + "." + raw body` with the webhook's secret, and a timestamp
 * older than five minutes is a replay.
 */
export function verifyFolioSignature(
  secret: string,
  headers: http.IncomingHttpHeaders,
  body: string,
): boolean {
  const timestamp = String(headers['x-folio-timestamp'] ?? '');
  const signature = String(headers['x-folio-signature-256'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return (
    fresh &&
    signature.length === expected.length &&
    timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  );
}

/**
 * A webhook receiver on 127.0.0.1 that answers with the next scripted behaviour (a status,
 * or `hang` to never answer) and then 200.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const script: Array<number | 'hang'> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      const next = script.shift() ?? 200;
      if (next === 'hang') return; // the sender's timeout ends it
      response.writeHead(next, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** The next answers, in order; after them every request gets 200. */
    answer: (...next: Array<number | 'hang'>) => script.push(...next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
