import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { loadOrCreateSecretFile } from './secrets.js';

const CIPHER = 'aes-256-gcm';

/**
 * Secrets Folio must be able to read back (a git password, a webhook's signing secret),
 * sealed with AES-256-GCM under a key kept in a file of its own in DATA_DIR (created 0600
 * on first use). `context` is authenticated with each secret (a workspace or webhook id),
 * so a sealed value copied to another row fails to open.
 */
export function createSecretBox(keyFile: string) {
  let keyPromise: Promise<Buffer> | null = null;
  const key = (): Promise<Buffer> => {
    keyPromise ??= loadOrCreateSecretFile(keyFile, () => randomBytes(32).toString('base64')).then((text) =>
      Buffer.from(text.trim(), 'base64'),
    );
    return keyPromise;
  };

  return {
    async seal(context: string, secret: string): Promise<string> {
      const iv = randomBytes(12);
      const cipher = createCipheriv(CIPHER, await key(), iv).setAAD(Buffer.from(context));
      const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
        .join('.');
    },

    async open(context: string, sealed: string): Promise<string> {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unreadable sealed secret');
      const decipher = createDecipheriv(CIPHER, await key(), Buffer.from(iv, 'base64'))
        .setAAD(Buffer.from(context))
        .setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
