import crypto from 'node:crypto';
import fs from 'node:fs';
import { createFileExclusive } from '../content/atomic-write.js';

/** A URL-safe random token of `bytes` bytes of entropy. */
export const randomToken = (bytes = 32): string => crypto.randomBytes(bytes).toString('base64url');

/** How one-time tokens are stored: only their SHA-256, so a database leak reveals none. */
export const sha256Hex = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');

/** Compares two secrets in constant time, whatever their lengths. */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb) && a.length === b.length;
}

/**
 * Reads a secret file from the data directory, creating it (mode 0600) with
 * `generate()` on first use. Used for the JWT key, the API-key pepper and the keys that
 * seal stored secrets. Several instances started at once on one DATA_DIR agree: the file
 * is created only if absent (atomically), and whoever loses the race reads the winner's.
 */
export async function loadOrCreateSecretFile(
  file: string,
  generate: () => string | Promise<string>,
): Promise<string> {
  const read = () => fs.promises.readFile(file, 'utf8');
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = await generate();
  // Created 0600 from the first byte: the secret is never readable by others, even briefly.
  return (await createFileExclusive(file, value, { mode: 0o600 })) ? value : read();
}

/**
 * A secret file read (or created, as by loadOrCreateSecretFile) on the first call rather
 * than at start, and kept after that. A failure is not kept: the next call tries again, so
 * a passing disk error does not stay with the process.
 */
export function secretFileOnFirstUse(
  file: string,
  generate: () => string | Promise<string>,
): () => Promise<string> {
  let loading: Promise<string> | undefined;
  return () =>
    (loading ??= loadOrCreateSecretFile(file, generate).catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
