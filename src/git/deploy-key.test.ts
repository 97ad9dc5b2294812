import { execFileSync, spawnSync } from 'node:child_process';
import { createPublicKey, verify, sign, createPrivateKey } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/helpers/git-fixtures.js';
import { generateDeployKey, writePrivateKeyFile } from './deploy-key.js';

const hasSshKeygen = spawnSync('ssh-keygen', ['-?'], { stdio: 'ignore' }).error === undefined;
if (!hasSshKeygen) {
  console.warn('deploy-key.test: ssh-keygen is not installed; skipping the ssh-keygen acceptance test');
}

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dir);
});

describe('generateDeployKey', () => {
  it('produces an OpenSSH public line whose key matches the private key', () => {
    const key = generateDeployKey();
    expect(key.publicKeyOpenSsh).toMatch(/^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]+=* folio$/);
    expect(key.privateKeyPem).toMatch(
      /^-----BEGIN OPENSSH PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END OPENSSH PRIVATE KEY-----\n$/,
    );
    expect(key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const other = generateDeployKey('ws-123');
    expect(other.publicKeyOpenSsh.endsWith(' ws-123')).toBe(true);
    expect(other.publicKeyOpenSsh).not.toBe(key.publicKeyOpenSsh);
  });

  it('embeds a seed and public key that belong together (sign with one, verify with the other)', () => {
    const key = generateDeployKey();
    const raw = Buffer.from(key.privateKeyPem.replace(/-----[A-Z ]+-----|\n/g, ''), 'base64');
    expect(raw.subarray(0, 15).toString('latin1')).toBe('openssh-key-v1\0');
    // Walk the format: magic, cipher, kdf, kdf options, key count, public blob, private section.
    let at = 15;
    const next = (buf: Buffer): Buffer => {
      const len = buf.readUInt32BE(at);
      const out = buf.subarray(at + 4, at + 4 + len);
      at += 4 + len;
      return out;
    };
    expect([next(raw).toString(), next(raw).toString(), next(raw).toString()]).toEqual(['none', 'none', '']);
    expect(raw.readUInt32BE(at)).toBe(1);
    at += 4;
    const publicBlob = next(raw);
    expect(publicBlob.toString('base64')).toBe(key.publicKeyOpenSsh.split(' ')[1]);
    const section = next(raw);
    expect(at).toBe(raw.length);
    expect(section.length % 8).toBe(0);
    at = 0;
    expect(section.readUInt32BE(0)).toBe(section.readUInt32BE(4)); // check words
    at = 8;
    expect(next(section).toString()).toBe('ssh-ed25519');
    const pubRaw = next(section);
    const secret = next(section);
    expect(next(section).toString()).toBe('folio');
    expect(secret.subarray(32).equals(pubRaw)).toBe(true);

    const der = (prefix: string, bytes: Buffer): Buffer => Buffer.concat([Buffer.from(prefix, 'hex'), bytes]);
    const priv = createPrivateKey({
      key: der('302e020100300506032b657004220420', secret.subarray(0, 32)),
      format: 'der',
      type: 'pkcs8',
    });
    const pub = createPublicKey({
      key: der('302a300506032b6570032100', pubRaw),
      format: 'der',
      type: 'spki',
    });
    const sig = sign(null, Buffer.from('deploy'), priv);
    expect(verify(null, Buffer.from('deploy'), pub, sig)).toBe(true);
  });

  it.skipIf(!hasSshKeygen)(
    'is accepted by ssh-keygen, which derives the same public key and fingerprint',
    async () => {
      const key = generateDeployKey('folio');
      const file = join(dir, 'id_ed25519');
      await writePrivateKeyFile(file, key.privateKeyPem);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const derived = execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' }).trim();
      expect(derived.split(' ').slice(0, 2).join(' ')).toBe(
        key.publicKeyOpenSsh.split(' ').slice(0, 2).join(' '),
      );
      const listed = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', file], { encoding: 'utf8' });
      expect(listed).toContain(key.fingerprint);
    },
  );
});
