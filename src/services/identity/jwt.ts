import type * as Jose from 'jose';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { unauthorized } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { LruCache } from '../../lib/lru-cache.js';
import { loadOrCreateSecretFile } from '../../lib/secrets.js';
import { importPackage } from '../../lib/import-package.js';

/** Access tokens live 15 minutes. */
export const ACCESS_TOKEN_SECONDS = 900;

export interface AccessClaims {
  userId: string;
  orgId: string;
  sessionId: string;
  /** The user's session epoch when issued; a later logout bumps it and the token dies. */
  epoch: number;
}

interface SigningKeys {
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  /** The public key's thumbprint, the `kid` of the tokens it signs. */
  keyId: string;
}

/** How many verified access tokens are remembered. */
const VERIFIED_TOKENS = 5_000;

/**
 * An RSA public key's RFC 7638 thumbprint (SHA-256, base64url): the hash of its JWK's
 * required members, `e`, `kty` and `n`, in that order without whitespace.
 */
function rsaThumbprint(publicKey: crypto.KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return crypto.createHash('sha256').update(canonical).digest('base64url');
}

/**
 * Signs and verifies RS256 access tokens with the key at JWT_KEY_PATH,
 * generated (mode 0600) at first start. Deleting the file and restarting
 * therefore invalidates every token ever issued, and (through `keyId`) every session.
 */
export function createJwtSigner(keyPath: string, clock: Clock) {
  // Read (or generated, on a thread of libuv's pool) on first need: `ready()`, which the
  // server calls once it listens, or a first sign or verify. Generating an RSA key takes
  // 40 to 200 ms of a core; begun while the server was being built, it took one of a
  // small machine's two cores from the start itself (bench/RESULTS.md, startup). Node's
  // crypto reads the key; jose is loaded on the first sign or verify, not at start.
  let loading: Promise<SigningKeys> | undefined;
  const keys = (): Promise<SigningKeys> =>
    (loading ??= loadOrCreateSecretFile(keyPath, generatePrivateKeyPem).then((pem) => {
      const publicKey = crypto.createPublicKey(pem);
      return { privateKey: crypto.createPrivateKey(pem), publicKey, keyId: rsaThumbprint(publicKey) };
    }));
  // Tokens already verified, by their SHA-256, until they expire: every request of a
  // signed-in client carries the same token, and an RS256 check was about a twelfth of
  // the server's CPU under load. The key never changes within a process.
  const verified = new LruCache<AccessClaims & { expiresAtMs: number }>(VERIFIED_TOKENS);

  return {
    /** Resolves once the key is loaded; rejects when it cannot be read or written. */
    ready: async (): Promise<void> => {
      await keys();
    },

    /**
     * The key's RFC 7638 thumbprint. Sessions record it, so a new key file ends
     * the refresh tokens issued under the old one, not only its access tokens.
     */
    keyId: async (): Promise<string> => (await keys()).keyId,

    async sign(claims: AccessClaims): Promise<{ token: string; expiresAt: Date }> {
      const { privateKey, keyId } = await keys();
      const { SignJWT } = await importPackage<typeof Jose>('jose');
      const iat = Math.floor(clock.now().getTime() / 1000);
      const token = await new SignJWT({ org: claims.orgId, sid: claims.sessionId, epoch: claims.epoch })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: keyId })
        .setSubject(claims.userId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
        .sign(privateKey);
      return { token, expiresAt: new Date((iat + ACCESS_TOKEN_SECONDS) * 1000) };
    },

    /** Verifies signature and expiry (which must be present); throws 401 for anything else. */
    async verify(token: string): Promise<AccessClaims> {
      const { publicKey } = await keys();
      const digest = crypto.createHash('sha256').update(token).digest('base64url');
      const known = verified.get(digest);
      if (known && known.expiresAtMs > clock.now().getTime()) {
        const { expiresAtMs: _, ...claims } = known;
        return claims;
      }
      try {
        const { jwtVerify } = await importPackage<typeof Jose>('jose');
        const { payload } = await jwtVerify(token, publicKey, {
          algorithms: ['RS256'],
          currentDate: clock.now(),
          // A token without an expiry would live forever, even though the key signed it.
          requiredClaims: ['exp'],
        });
        if (
          typeof payload.sub !== 'string' ||
          typeof payload.org !== 'string' ||
          typeof payload.sid !== 'string'
        ) {
          throw new Error('missing claims');
        }
        const claims = {
          userId: payload.sub,
          orgId: payload.org,
          sessionId: payload.sid,
          epoch: Number(payload.epoch ?? -1),
        };
        verified.set(digest, { ...claims, expiresAtMs: Number(payload.exp) * 1000 });
        return claims;
      } catch {
        throw unauthorized('Invalid or expired access token');
      }
    },
  };
}

export type JwtSigner = ReturnType<typeof createJwtSigner>;

const generateKeyPair = promisify(crypto.generateKeyPair);

async function generatePrivateKeyPem(): Promise<string> {
  const { privateKey } = await generateKeyPair('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return privateKey;
}
