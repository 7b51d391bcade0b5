/**
 * Site users' passwords, kept only as a slow-KDF hash: scrypt (node:crypto, run on libuv's thread pool so a sign-in
 * never blocks the event loop) with N = 2^15, r = 8, p = 1 (32 MiB and roughly 50–100 ms per check here), a 16-byte
 * random salt and a 32-byte key. The parameters are stored with the hash, so raising them later still verifies old
 * hashes; `needsRehash` says when a hash is below today's parameters.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const LOG2_N = 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** Shortest password accepted (NIST SP 800-63B asks for at least 8); the longest, so a huge one cannot tie up the KDF. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

const derive = (password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { N: 2 ** log2N, r, p, maxmem: 2 * 128 * r * 2 ** log2N + 1024 * 1024 };
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, LOG2_N, R, P);
  return ['scrypt', LOG2_N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; false (never a throw) for a hash this code cannot read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [log2N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![log2N, r, p].every((n) => Number.isInteger(n) && n > 0) || log2N > 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEY_BYTES) return false;
  const key = await derive(password, salt, log2N, r, p);
  return timingSafeEqual(key, expected);
}

export const needsRehash = (stored: string): boolean => !stored.startsWith(`scrypt$${LOG2_N}$${R}$${P}$`);

/** A hash of nothing anyone knows: checked when the e-mail is unknown, so a wrong e-mail takes as long as a wrong password. */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(24).toString('base64url')));

/** A password for `vitrine users add` when none is given: 20 characters of base64url (120 bits). */
export const generatePassword = (): string => randomBytes(15).toString('base64url');
