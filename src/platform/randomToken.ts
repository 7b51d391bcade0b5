/**
 * Random ids and tokens, base64url: cart tokens and lines, orders, payment attempts, gift-card rows, outbox messages —
 * the ids the hot write paths make. The bytes are fetched 4 KiB at a time and each handed out once: one call into the
 * system's CSPRNG per hundred or so tokens rather than one per token (as Node's own randomUUID keeps its entropy).
 */
import { randomBytes, randomFillSync } from 'node:crypto';

const randomPool = Buffer.alloc(4096);
let randomPoolUsed = randomPool.length;

/** `bytes` random bytes as base64url. */
export const randomToken = (bytes = 16): string => {
  if (bytes > randomPool.length) return randomBytes(bytes).toString('base64url');
  if (randomPoolUsed + bytes > randomPool.length) {
    randomFillSync(randomPool);
    randomPoolUsed = 0;
  }
  const token = randomPool.toString('base64url', randomPoolUsed, randomPoolUsed + bytes);
  randomPoolUsed += bytes;
  return token;
};
