import type * as StripeModule from 'stripe';
import type Stripe from 'stripe';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { importPackage } from '../../lib/import-package.js';

/** How old a webhook's signed timestamp may be (Stripe's own default), in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** What the billing services ask of Stripe; one implementation over the official SDK. */
export interface StripeGateway {
  createCustomer(input: { email: string; name: string; orgId: string }): Promise<{ id: string }>;
  createCheckoutSession(params: Stripe.Checkout.SessionCreateParams): Promise<{ id: string; url: string }>;
  createPortalSession(input: { customer: string; returnUrl: string }): Promise<{ url: string }>;
  /**
   * Verifies `Stripe-Signature` over the raw body with the SDK's verifier, timestamp
   * tolerance included (`receivedAtMs` is the instance's clock), and answers the event.
   * A bad or stale signature is 400 VALIDATION_ERROR.
   */
  verifyEvent(rawBody: Buffer, signature: string, receivedAtMs: number): Promise<Stripe.Event>;
}

/** Billing needs STRIPE_SECRET_KEY (and the webhook its secret): 503 until the operator sets it. */
const notConfigured = (variable: string) =>
  new AppError('SERVICE_UNAVAILABLE', `Billing is not configured on this instance (${variable} is unset)`);

/**
 * The official SDK, loaded on first use so it stays out of start-up (and out of the
 * Community edition entirely). STRIPE_API_BASE points it elsewhere (tests run a fake).
 */
export function createStripeGateway(config: Config['stripe']): StripeGateway {
  let client: Promise<Stripe> | undefined;

  function sdk(): Promise<Stripe> {
    const key = config.secretKey;
    if (!key) return Promise.reject(notConfigured('STRIPE_SECRET_KEY'));
    client ??= importPackage<typeof StripeModule>('stripe').then(({ default: StripeSdk }) => {
      const base = new URL(config.apiBase);
      return new StripeSdk(key, {
        host: base.hostname,
        protocol: base.protocol === 'http:' ? 'http' : 'https',
        ...(base.port ? { port: Number(base.port) } : {}),
        maxNetworkRetries: 2,
        timeout: 20_000,
        appInfo: { name: 'Folio' },
      });
    });
    return client;
  }

  /** Stripe's refusals become a clear 503 naming what Stripe said; the key never appears. */
  async function call<T>(what: string, run: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = await sdk();
    try {
      return await run(stripe);
    } catch (error) {
      const message = (error as { message?: string }).message ?? 'unknown error';
      throw new AppError('SERVICE_UNAVAILABLE', `The payment provider could not ${what}: ${message}`, {
        cause: error,
      });
    }
  }

  return {
    createCustomer: (input) =>
      call('create the customer', (stripe) =>
        stripe.customers.create({ email: input.email, name: input.name, metadata: { org_id: input.orgId } }),
      ),

    async createCheckoutSession(params) {
      const session = await call('start the checkout', (stripe) => stripe.checkout.sessions.create(params));
      if (!session.url)
        throw new AppError('SERVICE_UNAVAILABLE', 'The payment provider answered no checkout URL');
      return { id: session.id, url: session.url };
    },

    createPortalSession: (input) =>
      call('open the billing portal', (stripe) =>
        stripe.billingPortal.sessions.create({ customer: input.customer, return_url: input.returnUrl }),
      ),

    async verifyEvent(rawBody, signature, receivedAtMs) {
      const secret = config.webhookSecret;
      if (!secret) throw notConfigured('STRIPE_WEBHOOK_SECRET');
      // The verifier needs no API key; a placeholder keeps webhooks working without one.
      const { default: StripeSdk } = await importPackage<typeof StripeModule>('stripe');
      const verifier = config.secretKey ? await sdk() : new StripeSdk('sk_unset');
      try {
        return verifier.webhooks.constructEvent(
          rawBody,
          signature,
          secret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          receivedAtMs,
        );
      } catch (error) {
        throw new AppError('VALIDATION_ERROR', 'The Stripe-Signature header does not verify', {
          details: { field: 'stripe-signature', reason: (error as Error).message.split('\n')[0] },
        });
      }
    },
  };
}
