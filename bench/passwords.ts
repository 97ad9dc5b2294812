/**
 * Password hashing at the default cost (argon2id, 64 MiB, 3
 * iterations, parallelism 2): the time of one hash and of one verification,
 * which is what a login costs the server.
 */
import { createPasswordHasher } from '../src/services/identity/passwords.js';
import { percentile, report } from './report.js';

export async function benchPasswords(): Promise<void> {
  const hasher = createPasswordHasher({ memoryCost: 65536, timeCost: 3, parallelism: 2 });
  const hashes: number[] = [];
  const verifies: number[] = [];
  let stored = '';
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    stored = await hasher.hash(`correct horse battery ${i}`);
    hashes.push(performance.now() - t0);
    const t1 = performance.now();
    await hasher.verify(stored, `correct horse battery ${i}`);
    verifies.push(performance.now() - t1);
  }
  const t2 = performance.now();
  await hasher.verify(null, 'unknown email'); // first call also makes the decoy hash
  const unknownFirst = performance.now() - t2;
  const t3 = performance.now();
  await hasher.verify(null, 'unknown email');
  const unknown = performance.now() - t3;
  report('passwords', [
    { figure: 'argon2id hash at the default cost, median', value: `${percentile(hashes, 50).toFixed(0)} ms` },
    { figure: 'argon2id verify (a login), median', value: `${percentile(verifies, 50).toFixed(0)} ms` },
    {
      figure: 'verify for an unknown email (decoy), after the first',
      value: `${unknown.toFixed(0)} ms`,
      goal: 'about the same as a login',
    },
    { figure: 'first unknown-email verify (makes the decoy too)', value: `${unknownFirst.toFixed(0)} ms` },
  ]);
}
