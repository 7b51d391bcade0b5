/**
 * Restock (back in stock) notifications, spec §2–§5 and §7: which variant the sign-up form is for, reading a sign-up
 * (the §3 payload), how many shoppers a send may e-mail, and which variants came back in stock. The form's texts of
 * §5 and §8 are in ./forms/restock.ts. Shared by the server (src/modules/restock/) and the form island.
 */
import type { RestockVariant } from './restockForm';
import { RESTOCK_MESSAGES, validateRestockEmail } from './forms/restock';
import { err, ok, type Result } from './result';

/** Our texts for what the spec leaves open (the form's labels and its call to action). */
export const RESTOCK_LABELS = {
  /** The call to action when the site gives none (`merchandising.restockNotifications.message`). */
  callToAction: 'Notify me when this is back in stock',
  email: 'Email',
  joinMailingList: 'Join our mailing list',
  submit: 'Sign Up',
  /** The variant chooser of the form shown without JavaScript (the selects above need a script). */
  variant: 'Variant',
} as const;

/** The product's restock settings as the form needs them (the site file's `merchandising.restockNotifications`). */
export interface RestockSettings {
  enabled: boolean;
  message?: string | undefined;
  successMessage?: string | undefined;
  mailingListSignUpEnabled: boolean;
  mailingListOptInByDefault: boolean;
  hiddenByDefault: boolean;
}

/** The call to action: the site's text, else ours. */
export const restockCallToAction = (settings: Pick<RestockSettings, 'message'>): string =>
  settings.message?.trim() ? settings.message : RESTOCK_LABELS.callToAction;

export * from './restockForm';

/** A variant as shoppers name it: its option values ('Large / Charcoal'), or its SKU when it has none. */
export const variantLabel = (variant: Pick<RestockVariant, 'sku' | 'attributes'>): string => {
  const values = Object.values(variant.attributes).filter((v) => v.trim() !== '');
  return values.length > 0 ? values.join(' / ') : variant.sku;
};

// ---------------------------------------------------------------- the sign-up (§3 payload)

/** The §3 payload's field names. */
export const RESTOCK_FIELDS = {
  productId: 'productId',
  variantId: 'variantId',
  email: 'siteVisitorEmail',
  joinMailingList: 'isJoinMailingList',
  captchaToken: 'recaptchaEnterpriseV3Token',
} as const;

export type RestockField = (typeof RESTOCK_FIELDS)[keyof typeof RESTOCK_FIELDS];

export interface RestockSignUpInput {
  productId: string;
  /** The variant's SKU (variants have no other id). */
  variantId: string;
  /** Trimmed, as typed; the service stores it lower-cased. */
  email: string;
  isJoinMailingList: boolean;
  /** The CAPTCHA's token (any provider), or null. */
  captchaToken: string | null;
}

export interface RestockInputProblem {
  field: RestockField | null;
  message: string;
}

const PRODUCT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const SKU = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_TOKEN_LENGTH = 10_000;

/** A checkbox posted by a plain form sends its value ('true', 'on'); JSON sends a boolean. */
const readFlag = (value: unknown): boolean | null => {
  if (value === undefined || value === null || value === false || value === '' || value === 'false') return false;
  if (value === true || value === 'true' || value === 'on' || value === '1') return true;
  return null;
};

/**
 * Reads a sign-up (a JSON body or a plain form's fields): ids first (a wrong one is the page's bug, not the
 * shopper's), then the e-mail with the §5 texts. Never throws.
 */
export function readRestockSignUp(body: unknown): Result<RestockSignUpInput, RestockInputProblem> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return err({ field: null, message: 'The sign-up must be a JSON object.' });
  const b = body as Record<string, unknown>;
  const productId = b[RESTOCK_FIELDS.productId];
  if (typeof productId !== 'string' || !PRODUCT_ID.test(productId)) {
    return err({
      field: 'productId',
      message: 'productId must be a product id (1-64 lower-case letters, digits or dashes).',
    });
  }
  const variantId = b[RESTOCK_FIELDS.variantId];
  if (typeof variantId !== 'string' || !SKU.test(variantId)) {
    return err({
      field: 'variantId',
      message: "variantId must be a variant's SKU (1-64 letters, digits, dots, dashes or underscores).",
    });
  }
  const joins = readFlag(b[RESTOCK_FIELDS.joinMailingList]);
  if (joins === null) return err({ field: 'isJoinMailingList', message: 'isJoinMailingList must be true or false.' });
  const token = b[RESTOCK_FIELDS.captchaToken];
  if (token !== undefined && token !== null && (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH)) {
    return err({
      field: 'recaptchaEnterpriseV3Token',
      message: `recaptchaEnterpriseV3Token must be text of at most ${MAX_TOKEN_LENGTH} characters.`,
    });
  }
  const email = validateRestockEmail(b[RESTOCK_FIELDS.email]);
  if (!email.ok) return err({ field: 'siteVisitorEmail', message: email.error });
  // A control character (NUL, a line break) is no address's: PostgreSQL would refuse a NUL, and a mail header any.
  if (/\p{Cc}/u.test(email.value)) return err({ field: 'siteVisitorEmail', message: RESTOCK_MESSAGES.emailInvalid });
  return ok({
    productId,
    variantId,
    email: email.value,
    isJoinMailingList: joins,
    captchaToken: typeof token === 'string' && token !== '' ? token : null,
  });
}

/** The e-mail as stored and compared: trimmed and lower-cased (one sign-up per address and variant). */
export const normalizeRestockEmail = (email: string): string => email.trim().toLowerCase();

// ---------------------------------------------------------------- sending

export interface RestockStockLevel {
  unlimited: boolean;
  qtyInStock: number;
}

export const hasUnitsInStock = (stock: RestockStockLevel): boolean => stock.unlimited || stock.qtyInStock > 0;

/**
 * How many waiting shoppers a send may e-mail: as many as there are units in stock now, less those already e-mailed
 * since the variant came back (they have the first claim on those units); all of them when told to send to all or
 * when stock is unlimited. Never negative.
 */
export function restockSendLimit(
  stock: RestockStockLevel,
  notifiedSinceRestock: number,
  options: { all?: boolean } = {},
): number {
  if (options.all || stock.unlimited) return Number.POSITIVE_INFINITY;
  return Math.max(0, Math.floor(stock.qtyInStock) - Math.max(0, notifiedSinceRestock));
}

/** The SKUs that went from out of stock to in stock (0 → above 0, or unlimited) between two readings. */
export function restockedSkus(
  before: ReadonlyMap<string, RestockStockLevel>,
  after: ReadonlyMap<string, RestockStockLevel>,
): string[] {
  const skus: string[] = [];
  for (const [sku, now] of after) {
    const was = before.get(sku);
    if (was !== undefined && !hasUnitsInStock(was) && hasUnitsInStock(now)) skus.push(sku);
  }
  return skus;
}

/** The origin of the links in restock e-mails: the site's own address, never a forged Host (./linkOrigin.ts). */
export { linkOrigin } from './linkOrigin';
