import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK } from 'jose';
import { afterAll, expect, it } from 'vitest';
import { ACCESS_TOKEN_SECONDS, createJwtSigner } from './jwt.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-jwt-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let now = new Date('2026-03-01T12:00:00.000Z');
const clock = { now: () => now };
const signer = createJwtSigner(path.join(dir, 'jwt-private.pem'), clock);
const claims = { userId: 'u1', orgId: 'o1', sessionId: 's1', epoch: 3 };

it('answers a token verified before from memory, and still refuses it once expired', async () => {
  const { token } = await signer.sign(claims);
  expect(await signer.verify(token)).toEqual(claims);
  now = new Date(now.getTime() + (ACCESS_TOKEN_SECONDS - 1) * 1000);
  expect(await signer.verify(token)).toEqual(claims);
  now = new Date(now.getTime() + 2_000);
  await expect(signer.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
});

it('refuses a token whose signature was altered, even after the original was verified', async () => {
  const { token } = await signer.sign(claims);
  await signer.verify(token);
  const [header, payload, signature] = token.split('.');
  const flipped = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
  await expect(signer.verify(flipped)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
});

it("names its key by the key's RFC 7638 thumbprint, as the sessions issued under it record", async () => {
  const pem = fs.readFileSync(path.join(dir, 'jwt-private.pem'), 'utf8');
  const expected = await calculateJwkThumbprint(await exportJWK(crypto.createPublicKey(pem)), 'sha256');
  expect(await signer.keyId()).toBe(expected);
  const { token } = await signer.sign(claims);
  expect(decodeProtectedHeader(token).kid).toBe(expected);
});
