/**
 * `vitrine orders`: the merchant's view of the orders. `orders` lists them (newest first, every site unless --site),
 * `orders show N` prints one in full, `orders refund N` gives the money back through the payment provider that took it
 * (set up from the site's settings and the environment's keys) and puts the stock back (refundOrder does both, once, however often it is run). Order numbers belong to a site:
 * show and refund use the default site unless --site names another.
 */
import { formatAddressLines } from '../../core/checkout/address';
import { ProductType } from '../../core/enums';
import type { OrderStatus } from './tables';
import { getOrderByNumber, listOrders } from './orders';
import type { Order, OrderLine } from './orderTypes';
import {
  PaymentConfigError,
  paymentEnvOf,
  paymentProviderFor,
  type PaymentEnv,
  type PaymentProvider,
  type PaymentProviderName,
} from '../payments';
import { giftCardPaymentsOfOrder } from '../giftCards';
import { refundOrder } from './refunds';
import { type Site } from '../site';
import type { DbHandle } from '../../platform/db/connect';
import { orderPath } from '../checkout';
import { loadSettings, parseOptions, UsageError, UserError, withDatabase, type CliIo } from '../../cli/run';
import { money, siteFor } from '../../cli/shop';
import { formatTable, printable } from '../../platform/cli/table';

const STATUSES: readonly OrderStatus[] = ['paid', 'awaiting-payment', 'refunded'];
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 10_000;
const SUBCOMMANDS = "use 'vitrine orders', 'vitrine orders show N' or 'vitrine orders refund N'";

export async function ordersCommand(args: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = args;
  if (first === 'show') return showOrder(rest, io);
  if (first === 'refund') return refund(rest, io);
  if (first !== undefined && !first.startsWith('-'))
    throw new UsageError(`unknown orders command '${printable(first)}' (${SUBCOMMANDS})`);
  return list(args, io);
}

// ---------------------------------------------------------------- arguments

/** '2026-11-23 14:03:07' from a stored ISO time (UTC). */
const shownTime = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? iso.slice(0, 19).replace('T', ' ') : iso;

/** The order number and the options of `orders show|refund N [--site ID]`; N may come before or after the options. */
function numberAndSite(command: string, args: string[]): { number: number; siteId: string | undefined } {
  const positional: string[] = [];
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    // '-3' is a (wrong) order number, not an option.
    if (arg.startsWith('-') && !/^-\d/.test(arg)) {
      options.push(arg);
      if (!arg.includes('=') && i + 1 < args.length && !(args[i + 1] as string).startsWith('--'))
        options.push(args[++i] as string);
    } else {
      positional.push(arg);
    }
  }
  const parsed = parseOptions(command, options, ['--site']);
  if (positional.length === 0) throw new UsageError(`'${command}' needs the order number: vitrine ${command} N`);
  if (positional.length > 1) throw new UsageError(`'${command}' takes one order number, got ${positional.length}`);
  const text = positional[0] as string;
  const number = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!(Number.isSafeInteger(number) && number >= 1))
    throw new UsageError(`the order number must be a positive whole number, not '${printable(text)}'`);
  return { number, siteId: parsed['--site'] };
}

async function orderOf(handle: DbHandle, site: Site, number: number): Promise<Order> {
  const order = await getOrderByNumber(handle.db, site.id, number);
  if (!order) throw new UserError(`site '${printable(site.id)}' has no order #${number}`);
  return order;
}

// ---------------------------------------------------------------- orders

async function list(args: string[], io: CliIo): Promise<number> {
  const options = parseOptions('orders', args, ['--site', '--status', '--limit']);
  const status = options['--status'];
  if (status !== undefined && !STATUSES.includes(status as OrderStatus)) {
    throw new UsageError(`option '--status' must be paid, awaiting-payment or refunded, not '${printable(status)}'`);
  }
  const rawLimit = options['--limit'];
  const limit = rawLimit === undefined ? DEFAULT_LIMIT : /^\d{1,6}$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw new UsageError(
      `option '--limit' must be a whole number from 1 to ${MAX_LIMIT}, not '${printable(rawLimit ?? '')}'`,
    );
  }
  const siteId = options['--site'];

  return withDatabase(loadSettings(), io, async (handle) => {
    if (siteId !== undefined) await siteFor(handle, siteId);
    const orders = await listOrders(handle.db, {
      limit,
      ...(siteId !== undefined ? { siteId } : {}),
      ...(status !== undefined ? { status: status as OrderStatus } : {}),
    });
    if (orders.length === 0) {
      io.out(status === undefined ? 'No orders yet.' : `No ${status} orders.`);
      return 0;
    }
    const table = formatTable(
      [
        { header: 'NUMBER', align: 'right' },
        { header: 'PLACED (UTC)' },
        { header: 'STATUS' },
        { header: 'E-MAIL', maxWidth: 40 },
        { header: 'TOTAL', align: 'right' },
        { header: 'SITE' },
      ],
      orders.map((o) => [
        `#${o.number}`,
        shownTime(o.createdAt),
        o.status,
        o.email,
        money(o.currency, o.grandTotalCents),
        o.websiteId,
      ]),
    );
    for (const line of table) io.out(line);
    if (orders.length === limit) io.out(`(the newest ${limit}; --limit N shows more)`);
    return 0;
  });
}

// ---------------------------------------------------------------- orders show N

/** 'Size: M, Colour: Red', or '' without options. */
const attributesText = (line: OrderLine): string =>
  Object.entries(line.attributes)
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');

/** The order's totals as label and amount, in the order page's order (tax included is said after the total). */
function totalRows(order: Order, giftCards: readonly { lastFour: string; amountCents: number }[]): [string, string][] {
  const m = (minorUnits: number) => money(order.currency, minorUnits);
  const rows: [string, string][] = [['Subtotal', m(order.subtotalCents)]];
  if (order.discountCents > 0 || order.couponCode) {
    rows.push([order.couponCode ? `Discount (coupon ${order.couponCode})` : 'Discount', `-${m(order.discountCents)}`]);
  }
  rows.push(
    order.shippingOption
      ? [`Shipping (${order.shippingOption.name})`, m(order.shippingCents)]
      : ['Shipping (nothing to ship)', m(order.shippingCents)],
  );
  if (!order.pricesIncludeTax) rows.push([order.taxName, m(order.taxCents)]);
  rows.push(['Total', m(order.grandTotalCents)]);
  if (order.pricesIncludeTax) rows.push([`Includes ${order.taxName}`, m(order.taxCents)]);
  if (giftCards.length > 0) {
    for (const card of giftCards) rows.push([`Gift card •••• ${card.lastFour}`, `-${m(card.amountCents)}`]);
    const due = order.grandTotalCents - giftCards.reduce((sum, card) => sum + card.amountCents, 0);
    rows.push([order.status === 'awaiting-payment' ? 'Left to pay' : 'Charged to card', m(due)]);
  }
  return rows;
}

/** The order in full, as lines (every text a shopper or merchant typed made printable). */
export function orderLines(
  order: Order,
  giftCards: readonly { lastFour: string; amountCents: number }[] = [],
): string[] {
  const p = (text: string) => printable(text);
  const out = [
    `Order #${order.number}`,
    `Id:          ${order.id}`,
    `Site:        ${p(order.websiteId)}`,
    `Placed:      ${shownTime(order.createdAt)} UTC`,
    `Status:      ${order.status}`,
    `E-mail:      ${p(order.email)}`,
    `Payment:     ${p(order.paymentProvider)}`,
    `Order page:  ${orderPath(order.id)}`,
    '',
    'Items:',
  ];
  for (const line of order.lines) {
    const attributes = attributesText(line);
    out.push(`  ${p(line.title)}${attributes ? ` (${p(attributes)})` : ''}, sku ${p(line.sku)}`);
    for (const answer of line.additionalFieldsSummary)
      out.push(`    ${p(answer.title)}: ${p(answer.lines.join(', '))}`);
    out.push(
      `    ${line.quantity} × ${money(order.currency, line.unitPrice)} = ${money(order.currency, line.lineTotal)}`,
    );
  }
  const rows = totalRows(order, giftCards);
  const labelWidth = Math.max(...rows.map(([label]) => [...label].length)) + 1;
  const amountWidth = Math.max(...rows.map(([, amount]) => [...amount].length));
  out.push('');
  for (const [label, amount] of rows) out.push(`${`${p(label)}:`.padEnd(labelWidth)}  ${amount.padStart(amountWidth)}`);
  if (order.shippingAddress) {
    out.push('', 'Shipping to:', ...formatAddressLines(order.shippingAddress).map((l) => `  ${p(l)}`));
  }
  return out;
}

async function showOrder(args: string[], io: CliIo): Promise<number> {
  const { number, siteId } = numberAndSite('orders show', args);
  return withDatabase(loadSettings(), io, async (handle) => {
    const site = await siteFor(handle, siteId);
    const order = await orderOf(handle, site, number);
    for (const line of orderLines(order, await giftCardPaymentsOfOrder(handle.db, order.id))) io.out(line);
    return 0;
  });
}

// ---------------------------------------------------------------- orders refund N

async function refund(args: string[], io: CliIo): Promise<number> {
  const { number, siteId } = numberAndSite('orders refund', args);
  const config = loadSettings();
  return withDatabase(config, io, async (handle) => {
    const site = await siteFor(handle, siteId);
    const order = await orderOf(handle, site, number);
    // Said before the provider is set up: a refunded Stripe order needs no STRIPE_SECRET_KEY to be told so.
    if (order.status === 'refunded') throw new UserError(`order #${number} is already refunded`);
    const refunded = await refundOrder(handle.db, site.id, number, providerThatTook(site, order, paymentEnvOf(config)));
    if (!refunded.ok) throw new UserError(refunded.error.message);
    const restocked = await restockedUnits(handle, site.id, refunded.value);
    io.out(
      `Refunded order #${number} (${money(order.currency, order.grandTotalCents)}); ` +
        `stock put back for ${restocked} item${restocked === 1 ? '' : 's'}.`,
    );
    return 0;
  });
}

/**
 * The site's payment provider, set up for the one that took the order's payment: a site that moved from the test
 * provider to Stripe (or back) since must not send an old order's refund to the other one.
 */
function providerThatTook(site: Site, order: Order, env: PaymentEnv): PaymentProvider {
  const settings = site.settings.store.checkout.payments;
  try {
    return paymentProviderFor({ ...settings, provider: order.paymentProvider as PaymentProviderName }, env);
  } catch (error) {
    if (error instanceof PaymentConfigError)
      throw new UserError(`cannot refund order #${order.number}: ${error.message}`);
    throw error;
  }
}

/** The units refundOrder put back: lines of counted goods (physical, services) whose variant keeps a stock count. */
async function restockedUnits(handle: DbHandle, siteId: string, order: Order): Promise<number> {
  const counted = order.lines.filter(
    (l) => l.productType === ProductType.PHYSICAL || l.productType === ProductType.SERVICE,
  );
  if (counted.length === 0) return 0;
  const rows = await handle.db
    .selectFrom('variants')
    .select('sku')
    .where('site_id', '=', siteId)
    .where('unlimited', '=', 0)
    .where(
      'sku',
      'in',
      counted.map((l) => l.sku),
    )
    .execute();
  const skus = new Set(rows.map((r) => r.sku));
  return counted.filter((l) => skus.has(l.sku)).reduce((sum, l) => sum + l.quantity, 0);
}
