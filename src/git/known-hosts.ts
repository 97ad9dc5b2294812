/**
 * Reading the known_hosts file in which ssh remembers a workspace remote's
 * host key on first use (StrictHostKeyChecking=accept-new), so admins can
 * compare the key Folio trusts with the one their git host publishes.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** One trusted host key: `fingerprint` is what `ssh-keygen -l` prints (`SHA256:…`). */
export interface TrustedHostKey {
  host: string;
  type: string;
  fingerprint: string;
}

/** The keys in an OpenSSH known_hosts file, in file order; none when it does not exist. */
export async function readKnownHosts(file: string): Promise<TrustedHostKey[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const keys: TrustedHostKey[] = [];
  for (const line of text.split('\n')) {
    const [host, type, blob] = line.trim().split(/\s+/);
    if (!host || !type || !blob || host.startsWith('#') || host.startsWith('@')) continue;
    const digest = createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64');
    keys.push({ host, type, fingerprint: `SHA256:${digest.replace(/=+$/, '')}` });
  }
  return keys;
}
