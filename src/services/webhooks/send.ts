import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Target } from './target.js';

/** What a receiver answered, or why it could not. */
export interface SendOutcome {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}

export interface SignedDelivery {
  id: string;
  event: string;
  body: string;
  secret: string;
}

/** Responses are read only this far: a receiver's answer is logged, never stored whole. */
const MAX_RESPONSE_BYTES = 16 * 1024;

/**
 * The signature a receiver checks: HMAC-SHA256, keyed with the webhook's secret, of the
 * timestamp, a dot and the raw body. Including the timestamp lets receivers refuse
 * replays of an old delivery.
 */
export const signatureOf = (secret: string, timestamp: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/**
 * POSTs one delivery to the checked address (never resolving the name again) with
 * Folio's headers; any 2xx answer within `timeoutMs` is success.
 */
export function sendDelivery(
  target: Target,
  delivery: SignedDelivery,
  timeoutMs: number,
): Promise<SendOutcome> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const family = isIP(target.address);
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family }]);
    else callback(null, target.address, family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Folio-Webhooks',
          'x-folio-event': delivery.event,
          'x-folio-delivery': delivery.id,
          'x-folio-timestamp': timestamp,
          'x-folio-signature-256': signatureOf(delivery.secret, timestamp, delivery.body),
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        const status = response.statusCode ?? 0;
        const done = () =>
          resolve({
            ok: status >= 200 && status < 300,
            status,
            durationMs: elapsed(),
            error: status >= 200 && status < 300 ? null : `The receiver answered ${status}`,
          });
        response.on('end', done);
        response.on('close', done);
      },
    );
    request.on('error', (error) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      resolve({
        ok: false,
        status: null,
        durationMs: elapsed(),
        error: timedOut ? `No answer within ${timeoutMs / 1000} s` : error.message,
      });
    });
    request.end(delivery.body);
  });
}
