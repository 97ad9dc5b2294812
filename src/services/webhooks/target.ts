import { isIP } from 'node:net';
import { invalid } from '../../errors.js';
import {
  BLOCKED_NAMES,
  defaultResolveHost,
  type HostResolver,
  isBlockedAddress,
} from '../../git/remote-url.js';

export interface TargetRules {
  /** WEBHOOK_ALLOW_PRIVATE_HOSTS: receivers on loopback, private or link-local addresses, and plain http. */
  allowPrivateHosts: boolean;
  /** Injectable for tests; the system resolver by default. */
  resolveHost?: HostResolver;
}

/** Where a delivery goes: the URL, and the address checked for it, which is the one connected to. */
export interface Target {
  url: URL;
  address: string;
}

const refuse = (message: string): never => {
  throw invalid('url', message);
};

/**
 * Checks a receiver's URL (or any outbound URL: `what` names it in the messages) against SSRF and resolves it: https only (http too when private
 * hosts are allowed), no credentials in the URL, and no name or address that means this
 * machine, its network or a metadata service. Called on create and again before every
 * delivery, whose connection then goes to the address checked here, so a name that
 * resolves elsewhere later (DNS rebinding) cannot reach a private address.
 */
export async function checkTarget(raw: string, rules: TargetRules, what = 'webhook'): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(`The ${what} URL is not a valid URL`);
  }
  const httpAllowed = rules.allowPrivateHosts && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) refuse(`The ${what} URL must use https`);
  if (url.username || url.password) refuse(`The ${what} URL must not carry a user name or password`);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === '') refuse(`The ${what} URL has no host`);
  if (!rules.allowPrivateHosts && BLOCKED_NAMES.test(host))
    refuse(`The ${what} URL must not point at a local or internal host`);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    addresses = await (rules.resolveHost ?? defaultResolveHost)(host).catch(() => []);
    if (addresses.length === 0) refuse(`The ${what} host ${host} cannot be resolved`);
  }
  if (!rules.allowPrivateHosts && addresses.some(isBlockedAddress))
    refuse(`The ${what} URL must not point at a loopback, private, link-local or metadata address`);
  return { url, address: addresses[0]! };
}
