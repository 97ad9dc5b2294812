/**
 * Per-workspace SSH deploy keys: Folio keeps the private half under DATA_DIR
 * and shows the public line for the user to paste into their git host.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFile, chmod } from 'node:fs/promises';

export interface DeployKey {
  /** The private key in OpenSSH format (`-----BEGIN OPENSSH PRIVATE KEY-----`), unencrypted. */
  privateKeyPem: string;
  /** The authorized_keys line, `ssh-ed25519 AAAA... <comment>`. */
  publicKeyOpenSsh: string;
  /** As `ssh-keygen -l` prints it: `SHA256:<base64, no padding>`. */
  fingerprint: string;
}

const KEY_TYPE = 'ssh-ed25519';

/** SSH wire encoding: uint32 big-endian length, then the bytes. */
function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/**
 * Generates an ed25519 key pair. Node exports ed25519 only as PKCS8/SPKI, which
 * older OpenSSH builds and some hosts' key parsers reject, so both halves are
 * written in OpenSSH's own formats (PROTOCOL.key and RFC 8709).
 */
export function generateDeployKey(comment = 'folio'): DeployKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d ?? '', 'base64url');
  if (pub.length !== 32 || seed.length !== 32) throw new Error('unexpected ed25519 key length');

  const publicBlob = Buffer.concat([sshString(KEY_TYPE), sshString(pub)]);
  const safeComment = comment.replace(/[\r\n]/g, ' ').trim();

  // The two equal check words let OpenSSH detect a wrong passphrase; unencrypted keys still carry them.
  const check = randomBytes(4).readUInt32BE();
  const section = [
    uint32(check),
    uint32(check),
    sshString(KEY_TYPE),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])), // OpenSSH stores the 64-byte seed||public form
    sshString(safeComment),
  ];
  let privateSection = Buffer.concat(section);
  const padding: number[] = [];
  for (let i = 1; (privateSection.length + padding.length) % 8 !== 0; i++) padding.push(i);
  privateSection = Buffer.concat([privateSection, Buffer.from(padding)]);

  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    sshString('none'), // cipher
    sshString('none'), // kdf
    sshString(''), // kdf options
    uint32(1), // number of keys
    sshString(publicBlob),
    sshString(privateSection),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  const privateKeyPem = `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;

  const publicKeyOpenSsh = `${KEY_TYPE} ${publicBlob.toString('base64')}${safeComment ? ` ${safeComment}` : ''}`;
  const fingerprint = `SHA256:${createHash('sha256').update(publicBlob).digest('base64').replace(/=+$/, '')}`;
  return { privateKeyPem, publicKeyOpenSsh, fingerprint };
}

/** Writes a private key readable by its owner only; ssh refuses keys other users can read. */
export async function writePrivateKeyFile(path: string, privateKeyPem: string): Promise<void> {
  await writeFile(path, privateKeyPem, { mode: 0o600 });
  await chmod(path, 0o600); // mode applies only when the file is created
}
