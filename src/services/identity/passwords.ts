import type * as Argon2 from '@node-rs/argon2';
import { invalid } from '../../errors.js';
import { lazyPackage } from '../../lib/lazy-package.js';

// A native addon (dlopen and its CommonJS loader): loaded on the first hash or verify, so a
// start that signs nobody in never pays for it.
const loadArgon2 = lazyPackage<typeof Argon2>('@node-rs/argon2');

export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** 8 to 1024 characters, no character-class rules. */
export function checkPasswordPolicy(password: string, field = 'password'): void {
  const length = [...password].length;
  if (length < 8) throw invalid(field, 'Password must be at least 8 characters');
  if (length > 1024) throw invalid(field, 'Password must be at most 1024 characters');
}

/** argon2id with the configured cost, a 16-byte salt and a 32-byte key. */
export function createPasswordHasher(cost: Argon2Cost) {
  const options = {
    algorithm: 2 as const, // Algorithm.Argon2id (a const enum, so spelled out)
    memoryCost: cost.memoryCost,
    timeCost: cost.timeCost,
    parallelism: cost.parallelism,
    outputLen: 32,
  };
  // Verified against when the email is unknown, so both answers take as long.
  // Made on first need: hashing at start would cost start-up time and memory.
  let decoy: Promise<string> | null = null;

  return {
    hash: (password: string): Promise<string> => loadArgon2().hash(password, options),

    /** Verifies; with a null hash it spends the same time and answers false. */
    async verify(passwordHash: string | null, password: string): Promise<boolean> {
      // Outside the try: an addon that fails to load is an error, not a wrong password.
      const { hash, verify } = loadArgon2();
      try {
        if (passwordHash === null) {
          decoy ??= hash('folio-decoy-password', options);
          await verify(await decoy, password);
          return false;
        }
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
