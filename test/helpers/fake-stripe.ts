import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Stripe's API, speaking its wire format: form-encoded requests with
 * bracketed keys (`line_items[0][price_data][currency]=usd`), a secret key as Bearer
 * token, Stripe's JSON objects and its error body (`{ error: { type, code, message, param } }`).
 * It covers what Folio calls (customers, Checkout Sessions, Customer Portal sessions) and
 * serves the Checkout page its sessions point at. `signed` builds webhook deliveries signed
 * exactly as Stripe signs them.
 */
export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every API request received, decoded. */
  requests: Array<{ method: string; path: string; form: Record<string, unknown> }>;
  /** The next API request answers this status and Stripe error instead. */
  failNext(status: number, error: { type: string; message: string; code?: string }): void;
  close(): Promise<void>;
}

/** Decodes Stripe's bracketed form encoding into nested objects (arrays as index-keyed objects). */
export function decodeStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Starts the fake on a free loopback port. */
export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const requests: FakeStripe['requests'] = [];
  let failure: { status: number; error: object } | null = null;
  let base = '';

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  };
  const stripeError = (res: http.ServerResponse, status: number, error: object) =>
    send(res, status, { error });

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      // The hosted pages sessions' urls lead to (what a browser sees).
      const hosted = url.pathname.startsWith('/checkout/')
        ? 'Checkout'
        : url.pathname.startsWith('/portal/')
          ? 'Customer Portal'
          : null;
      if (req.method === 'GET' && hosted) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>Fake Stripe ${hosted}</title><h1>Fake Stripe ${hosted}</h1>`);
        return;
      }
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        stripeError(res, 401, {
          type: 'invalid_request_error',
          message: 'Invalid API Key provided',
        });
        return;
      }
      if (
        req.headers['content-type'] &&
        !req.headers['content-type'].startsWith('application/x-www-form-urlencoded')
      ) {
        stripeError(res, 400, { type: 'invalid_request_error', message: 'Bodies must be form-encoded' });
        return;
      }
      const form = decodeStripeForm(raw);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, form });
      if (failure) {
        const { status, error } = failure;
        failure = null;
        stripeError(res, status, error);
        return;
      }
      const created = Math.floor(Date.now() / 1000);
      const missing = (param: string) =>
        stripeError(res, 400, {
          type: 'invalid_request_error',
          code: 'parameter_missing',
          param,
          message: `Missing required param: ${param}.`,
        });
      if (req.method === 'POST' && url.pathname === '/v1/customers') {
        send(res, 200, { id: id('cus'), object: 'customer', created, livemode: false, ...form });
        return;
      }
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        for (const param of ['mode', 'success_url', 'line_items'])
          if (!(param in form)) return missing(param);
        const sessionId = id('cs_test');
        send(res, 200, {
          id: sessionId,
          object: 'checkout.session',
          created,
          livemode: false,
          status: 'open',
          payment_status: 'unpaid',
          url: `${base}/checkout/${sessionId}`,
          ...form,
        });
        return;
      }
      if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        if (!form.customer) return missing('customer');
        const sessionId = id('bps');
        send(res, 200, {
          id: sessionId,
          object: 'billing_portal.session',
          created,
          livemode: false,
          customer: form.customer,
          return_url: form.return_url ?? null,
          url: `${base}/portal/${sessionId}`,
        });
        return;
      }
      stripeError(res, 404, {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    secretKey,
    webhookSecret,
    requests,
    failNext(status, error) {
      failure = { status, error };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Stripe event envelope as Stripe delivers it. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created: number },
): Record<string, unknown> {
  return {
    id: options.id ?? id('evt'),
    object: 'event',
    api_version: '2025-10-29.clover',
    created: options.created,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/**
 * A webhook delivery signed as Stripe signs it: `Stripe-Signature: t=<ts>,v1=<hex>`, the
 * HMAC-SHA256 of `<ts>.<payload>` under the endpoint's secret.
 */
export function signed(
  secret: string,
  event: Record<string, unknown>,
  timestamp: number,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(event, null, 2);
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return {
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': `t=${timestamp},v1=${v1}`,
    },
  };
}
