/**
 * A gift card's amounts in the product editor (issue 26): a gift card (product type 4) is sold in denominations, each a
 * variant whose price is the card's value (unlimited stock), picked by one option ('Amount': '$25', '$50'…, §5 'Select
 * a denomination for the Gift Card'). The owner types the amounts ('25, 50, 100'); this makes the option and the
 * variants, keeping each amount's variant (its SKU: orders and issued cards name it) when it was there before.
 */
import type { CurrencyCode } from '../../core/currency';
import { fractionDigits } from '../../core/currency';
import { formatAmount, formatMoneyTrimmed, parseMoney } from '../../core/money';
import { err, ok, type Result } from '../../core/result';
import { freeId, slugify } from './productEdit';

export const GIFT_CARD_OPTION = 'Amount';
/** Most amounts a gift card offers in the editor. */
export const MAX_GIFT_CARD_AMOUNTS = 20;

export const AMOUNT_MESSAGES = {
  none: 'must have at least one amount, like 25, 50, 100',
  notAmount: (typed: string, currency: CurrencyCode) =>
    `“${typed}” is not an amount: write amounts like ${fractionDigits(currency) === 0 ? '1000, 5000' : '25, 50, 100'}, separated by commas`,
  zero: 'An amount must be above 0',
  already: 'This amount already exists',
  tooMany: `must have at most ${MAX_GIFT_CARD_AMOUNTS} amounts`,
} as const;

/** A variant of the gift card as the editor holds it. */
export interface AmountRow {
  sku: string;
  /** Minor units. */
  price: number;
  /** A stored variant: its SKU when the form was made. */
  originalSku?: string | undefined;
}

/** The amounts as the owner reads them: '25, 50, 100' ('12.50' when not whole). */
export function amountsText(prices: readonly number[], currency: CurrencyCode): string {
  return [...new Set(prices)].map((minorUnits) => formatAmount({ minorUnits, currency }, true)).join(', ');
}

/** '25, 50, 100' (a thousands comma needs no care: '1,000' is read as 1 and 000 — write 1000) → minor units. */
export function parseAmounts(text: string, currency: CurrencyCode): Result<number[], string> {
  const typed = text
    .split(/[,;\s]+/)
    .map((t) => t.trim().replace(/^[^\d.]+/, ''))
    .filter(Boolean);
  if (typed.length === 0) return err(AMOUNT_MESSAGES.none);
  if (typed.length > MAX_GIFT_CARD_AMOUNTS) return err(AMOUNT_MESSAGES.tooMany);
  const amounts: number[] = [];
  for (const each of typed) {
    const parsed = parseMoney({ decimalValue: each, currencyCode: currency }, currency);
    if (!parsed.ok) return err(AMOUNT_MESSAGES.notAmount(each, currency));
    if (parsed.value.minorUnits === 0) return err(AMOUNT_MESSAGES.zero);
    if (amounts.includes(parsed.value.minorUnits)) return err(`${AMOUNT_MESSAGES.already}: ${each}`);
    amounts.push(parsed.value.minorUnits);
  }
  return ok(amounts);
}

/** An amount as the shopper chooses it: '$25', '$12.50'. */
export const amountLabel = (minorUnits: number, currency: CurrencyCode): string =>
  formatMoneyTrimmed({ minorUnits, currency });

/**
 * The option and the variants of a gift card selling `amounts`: the variant that had an amount keeps its SKU; a new
 * amount gets '{slug}-{amount}' (made free among the site's `takenSkus` and the others).
 */
export function giftCardVariants(
  amounts: readonly number[],
  rows: readonly AmountRow[],
  options: { slug: string; currency: CurrencyCode; optionName?: string | undefined; takenSkus: ReadonlySet<string> },
): {
  option: { name: string; values: string[] };
  variants: (AmountRow & { attributes: Record<string, string> })[];
} {
  const name = options.optionName?.trim() || GIFT_CARD_OPTION;
  const left = [...rows];
  const taken = new Set([...options.takenSkus, ...rows.map((r) => r.sku)]);
  const variants = amounts.map((price) => {
    const label = amountLabel(price, options.currency);
    const at = left.findIndex((r) => r.price === price);
    const kept = at === -1 ? undefined : left.splice(at, 1)[0];
    if (kept) return { ...kept, attributes: { [name]: label } };
    const sku = freeId(
      `${options.slug}-${slugify(formatAmount({ minorUnits: price, currency: options.currency }, true))}`,
      taken,
    );
    taken.add(sku);
    return { sku, price, attributes: { [name]: label } };
  });
  return { option: { name, values: variants.map((v) => Object.values(v.attributes)[0] ?? '') }, variants };
}
