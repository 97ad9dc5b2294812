import { z } from 'zod';
import { listOf, record, timestamp } from './shape.js';

/** A sign-in's tokens (login, refresh, a passkey, an identity provider, a password change). */
export const tokenPair = record({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int().describe('Seconds until the access token expires'),
});
export type TokenPair = z.infer<typeof tokenPair>;

/** `POST /api/auth/register`: the new user, signed in (the refresh token is only a cookie). */
export const registered = record({
  user: record({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    handle: z.string(),
    role: z.string().describe('The role in the new organization: superadmin'),
  }),
  access_token: z.string(),
  expires_at: timestamp.describe('When the access token expires'),
});
export type Registered = z.infer<typeof registered>;

/** The signed-in user, with their role in the organization they act in. */
export const me = record({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  handle: z.string(),
  role: z.string(),
  platform_owner: z.boolean(),
  org: record({ id: z.string(), handle: z.string(), name: z.string() }).nullable(),
});
export type Me = z.infer<typeof me>;

/** One signed-in device. */
export const sessionRecord = record({
  id: z.string(),
  device: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: timestamp,
  last_active_at: timestamp,
  current: z.boolean().describe('The session that asks'),
});
export type Session = z.infer<typeof sessionRecord>;

export const sessionList = listOf(sessionRecord);

/** The sign-in methods this server offers besides passwords. */
export const signInProviders = record({
  providers: z.array(record({ id: z.string(), name: z.string() })),
  passkeys: z.boolean(),
});
export type SignInProviders = z.infer<typeof signInProviders>;

/** `POST /api/auth/oidc/:provider` from a script: where to send the browser. */
export const providerRedirect = record({ url: z.string() });
export type ProviderRedirect = z.infer<typeof providerRedirect>;

/** An identity-provider account linked to the user. */
export const linkedIdentity = record({
  id: z.string(),
  provider: z.string(),
  email: z.string(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
});
export type LinkedIdentity = z.infer<typeof linkedIdentity>;

export const linkedIdentityList = listOf(linkedIdentity);

/** `POST /api/auth/oidc/link`: the provider account now linked. */
export const identityLinked = record({ provider: z.string(), email: z.string() });
export type IdentityLinked = z.infer<typeof identityLinked>;

/** A stored passkey as the API shows it (never its key). */
export const passkeyRecord = record({
  id: z.string(),
  name: z.string(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
  device_type: z.string().describe('singleDevice or multiDevice (synced)'),
  backed_up: z.boolean(),
});
export type Passkey = z.infer<typeof passkeyRecord>;

export const passkeyList = listOf(passkeyRecord);

/** Options for `navigator.credentials.create()`, as WebAuthn's JSON form spells them. */
export const passkeyCreationOptions = record({
  challenge: z.string(),
  rp: record({ name: z.string() }),
  user: record({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(record({ alg: z.number(), type: z.string() })),
});

/** Options for `navigator.credentials.get()`: a challenge, no `allowCredentials`. */
export const passkeyRequestOptions = record({ challenge: z.string() });
