/**
 * Gift-card codes: long, random and unguessable, written for people to read and type. 16 characters from an alphabet
 * without look-alikes (no 0/O, 1/I) give 80 random bits; they are shown in groups of four ('7KQM-…'). What a shopper
 * types is normalized (case, spaces, dashes) before it is compared, so '7kqm 2x…' finds the same card. The code itself
 * is never stored: the service keeps its sha256 and its last four characters (for display).
 */

/** 32 characters: a random byte modulo 32 picks one without bias. */
export const GIFT_CARD_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const GIFT_CARD_CODE_LENGTH = 16;
const GROUP = 4;

/** The characters the shopper may type around the code (spaces, dashes), dropped before comparing. */
const SEPARATORS = /[\s\-_.]+/g;

/** A new code from GIFT_CARD_CODE_LENGTH random bytes (the caller's CSPRNG), normalized (no dashes). */
export function giftCardCodeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < GIFT_CARD_CODE_LENGTH)
    throw new RangeError(`a gift-card code needs ${GIFT_CARD_CODE_LENGTH} random bytes, got ${bytes.length}`);
  let code = '';
  for (let i = 0; i < GIFT_CARD_CODE_LENGTH; i++)
    code += GIFT_CARD_CODE_ALPHABET[(bytes[i] as number) % GIFT_CARD_CODE_ALPHABET.length];
  return code;
}

/** What was typed, upper case and without separators; '' for anything that is not text. */
export function normalizeGiftCardCode(input: unknown): string {
  return typeof input === 'string' ? input.normalize('NFKC').replace(SEPARATORS, '').toUpperCase() : '';
}

/** A normalized text that could be a code (the right length and alphabet); anything else names no card. */
export function isGiftCardCodeShape(normalized: string): boolean {
  if (normalized.length !== GIFT_CARD_CODE_LENGTH) return false;
  for (const c of normalized) if (!GIFT_CARD_CODE_ALPHABET.includes(c)) return false;
  return true;
}

/** '7KQM-2XHD-…' for reading: groups of four joined by dashes. */
export function formatGiftCardCode(code: string): string {
  const normalized = normalizeGiftCardCode(code);
  const groups: string[] = [];
  for (let i = 0; i < normalized.length; i += GROUP) groups.push(normalized.slice(i, i + GROUP));
  return groups.join('-');
}

/** The last four characters: the only part of a code kept in clear, to tell cards apart. */
export const giftCardLastFour = (code: string): string => normalizeGiftCardCode(code).slice(-4);

/** How a card is named where its code must not be shown: '•••• 7KQM'. */
export const maskedGiftCard = (lastFour: string): string => `•••• ${lastFour}`;
