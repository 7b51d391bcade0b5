/**
 * `vitrine orders`: the merchant's view of the orders. `orders` lists them (newest first, every site unless --site),
 * `orders show N` prints one in full, `orders refund N` gives the money back through the payment provider that took it
 * (set up from the site's settings and the environment's keys) and puts the stock back (refundOrder does both, once, however often it is run). Order numbers belong to a site:
 * show and refund use the default site unless --site names another.
 * `orders fulfil N [--carrier C] [--tracking T] [--no-email]` and `orders unfulfil N`: the same change as the fulfil
 * form at /admin/orders (./fulfilment.ts: one conditional update, the shipment, the customer's e-mail and the audit
 * entry by 'vitrine command', in one transaction).
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
import { refundOrder, refundOrderPart } from './refunds';
import { fulfilOrder, unfulfilOrder } from './fulfilment';
import { fractionDigits, parseCurrencyCode } from '../../core/currency';
import {
  CARRIERS,
  isCarrier,
  normalTrackingNumber,
  PAYMENT_LABELS,
  trackingNumberProblem,
  trackingUrl,
} from '../../core/orderStates';
import { parseAmount } from '../../core/refundAmount';
import { randomToken } from '../../platform/randomToken';
import { COMMAND_ACTOR } from '../admin';
import { type Site } from '../site';
import type { DbHandle } from '../../platform/db/connect';
import { orderPath } from '../checkout';
import { defineCommand, UsageError, UserError, type Command, type PositionalSpec } from '../../platform/cli/command';
import { loadSettings } from '../../config';
import { withDatabase } from '../../platform/cli/database';
import { formatStoredMoney as money } from '../../core/money';
import { siteFor } from '../site';
import { formatTable, printable } from '../../platform/cli/table';

const STATUSES: readonly OrderStatus[] = ['paid', 'awaiting-payment', 'refunded'];
const SITE = {
  type: 'string',
  value: 'ID',
  description: 'the site of order number N (default: the default one)',
} as const;
/** '-3' is a (wrong) order number, said so, not an option. */
const ORDER_NUMBER: PositionalSpec = { name: 'N', what: 'order number', integer: true, dashValue: /^-\d/ };

// ---------------------------------------------------------------- arguments

/** '2026-11-23 14:03:07' from a stored ISO time (UTC). */
const shownTime = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? iso.slice(0, 19).replace('T', ' ') : iso;

async function orderOf(handle: DbHandle, site: Site, number: number): Promise<Order> {
  const order = await getOrderByNumber(handle.db, site.id, number);
  if (!order) throw new UserError(`site '${printable(site.id)}' has no order #${number}`);
  return order;
}

// ---------------------------------------------------------------- orders

const listCommand = defineCommand({
  name: 'orders',
  options: {
    site: { type: 'string', value: 'ID', description: 'only the orders of this site' },
    status: { type: 'string', choices: STATUSES, description: 'only the orders of this status' },
    limit: { type: 'integer', min: 1, max: 10_000, default: 50, description: 'at most this many orders' },
  },
  async run({ options }, io) {
    const { site: siteId, status, limit } = options;
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
  },
});

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

const showCommand = defineCommand({
  name: 'orders show',
  positionals: [ORDER_NUMBER],
  options: { site: SITE },
  async run({ options, positionals }, io) {
    const number = Number(positionals[0]);
    const siteId = options.site;
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, siteId);
      const order = await orderOf(handle, site, number);
      for (const line of orderLines(order, await giftCardPaymentsOfOrder(handle.db, order.id))) io.out(line);
      return 0;
    });
  },
});

// ---------------------------------------------------------------- orders refund N

const refundCommand = defineCommand({
  name: 'orders refund',
  positionals: [ORDER_NUMBER],
  options: {
    site: SITE,
    amount: { type: 'string', value: 'AMOUNT', description: 'refund this amount (12.50), not the whole order' },
    line: {
      type: 'string',
      value: 'POS:QTY[,POS:QTY…]',
      description: "refund these units of the order's lines (1 is the first line, as 'orders show' lists them)",
    },
    reason: { type: 'string', value: 'TEXT', description: 'why (the customer is told it)' },
    restock: {
      type: 'boolean',
      description: 'put the refunded units back in stock (a whole-order refund always does)',
    },
    yes: { type: 'boolean', short: 'y', description: 'do not ask to confirm' },
  },
  details: [
    'Without --amount or --line, the whole order is refunded and its stock put back; again does nothing more.',
    'Asks to confirm on a terminal; elsewhere (a script) it needs --yes.',
  ],
  async run({ options, positionals }, io) {
    const number = Number(positionals[0]);
    const siteId = options.site;
    const config = loadSettings();
    const part = options.amount !== undefined || options.line !== undefined;
    const lines = options.line === undefined ? [] : parseLines(options.line);
    return withDatabase(config, io, async (handle) => {
      const site = await siteFor(handle, siteId);
      const order = await orderOf(handle, site, number);
      // Said before the provider is set up: a refunded Stripe order needs no STRIPE_SECRET_KEY to be told so.
      if (order.status === 'refunded') throw new UserError(`order #${number} is already refunded`);
      const decimals = fractionDigits(parseCurrencyCode(order.currency) ?? 'USD');
      const amount = options.amount === undefined ? 0 : parseAmount(options.amount, decimals);
      if (amount === undefined)
        throw new UserError(
          `--amount must be an amount above zero, like 12.50, not '${printable(options.amount ?? '')}'`,
        );
      for (const l of lines)
        if (!order.lines.some((x) => x.position === l.position))
          throw new UserError(`order #${number} has no line ${l.position + 1} (it has ${order.lines.length})`);
      if (part && !options.reason?.trim()) throw new UserError('a partial refund needs --reason TEXT');
      const what = part
        ? `${[
            ...lines.map(
              (l) => `${l.quantity} × ${printable(order.lines.find((x) => x.position === l.position)!.title)}`,
            ),
            ...(amount > 0 ? [money(order.currency, amount)] : []),
          ].join(' and ')} of order #${number}`
        : `the whole of order #${number} (${money(order.currency, order.grandTotalCents - order.refundedTotalCents)})`;
      if (!options.yes && !(await confirmOnTerminal(`Refund ${what}? [y/N] `)))
        throw new UserError(`nothing refunded: run it again with --yes to refund ${what}`);
      const provider = providerThatTook(site, order, paymentEnvOf(config));
      if (!part) {
        const refunded = await refundOrder(handle.db, site.id, number, provider, new Date(), {
          ...(options.reason?.trim() ? { reason: options.reason.trim() } : {}),
          siteTitle: site.title,
        });
        if (!refunded.ok) throw new UserError(refunded.error.message);
        const restocked = await restockedUnits(handle, site.id, order);
        io.out(
          `Refunded order #${number} (${money(order.currency, order.grandTotalCents - order.refundedTotalCents)}); ` +
            `stock put back for ${restocked} item${restocked === 1 ? '' : 's'}.`,
        );
        return 0;
      }
      const done = await refundOrderPart(handle.db, { siteId: site.id, siteTitle: site.title, provider }, number, {
        idempotencyKey: `cli:${randomToken(16)}`,
        lines,
        amount,
        reason: options.reason ?? '',
        restock: options.restock,
        actor: COMMAND_ACTOR,
      });
      if (!done.ok) throw new UserError(done.error.message);
      const state = PAYMENT_LABELS[done.value.paymentState];
      io.out(
        `Refunded ${money(order.currency, done.value.refund.amountCents)} of order #${number}` +
          `${options.restock && lines.length > 0 ? ', units put back in stock' : ''}; payment: ${state}.`,
      );
      return 0;
    });
  },
});

/** '1:2,3:1' (1 is the first line) as line positions and quantities. */
function parseLines(text: string): { position: number; quantity: number }[] {
  return text.split(',').map((part) => {
    const match = /^\s*(\d{1,4}):(\d{1,6})\s*$/.exec(part);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
      throw new UserError(`--line takes LINE:QUANTITY (like 1:2), not '${printable(part)}'`);
    return { position: Number(match[1]) - 1, quantity: Number(match[2]) };
  });
}

/** Asks on the terminal; false when there is none (a script, a pipe) or the answer is not yes. */
async function confirmOnTerminal(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false;
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
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
  return counted.filter((l) => skus.has(l.sku)).reduce((sum, l) => sum + l.quantity - l.refundedQuantity, 0);
}

// ---------------------------------------------------------------- orders fulfil N / unfulfil N

const fulfilCommand = defineCommand({
  name: 'orders fulfil',
  positionals: [ORDER_NUMBER],
  options: {
    site: SITE,
    carrier: {
      type: 'string',
      value: 'C',
      // The carriers' names as the form lists them; checked here, case and all, so a link can be made.
      format: { test: isCarrier, forms: CARRIERS.map((c) => `'${c}'`).join(', ') },
      description: `the carrier (${CARRIERS.join(', ')}): known ones get a tracking link`,
    },
    tracking: { type: 'string', value: 'T', description: 'the tracking number' },
    'no-email': { type: 'boolean', description: "do not send the customer the 'on its way' e-mail" },
  },
  details: ['Without --no-email the customer is e-mailed, as the fulfil form does by default.'],
  async run({ options, positionals }, io) {
    const number = Number(positionals[0]);
    const trackingNumber = normalTrackingNumber(options.tracking);
    const problem = trackingNumberProblem(trackingNumber);
    if (problem) throw new UsageError(`--tracking: ${problem}`);
    const carrier = options.carrier !== undefined && isCarrier(options.carrier) ? options.carrier : null;
    const notify = !options['no-email'];
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const done = await fulfilOrder(handle.db, site.id, number, {
        carrier,
        trackingNumber,
        notify,
        actor: COMMAND_ACTOR,
        siteTitle: site.title,
      });
      if (!done.ok)
        throw new UserError(
          done.error.type === 'ORDER_NOT_FOUND'
            ? `site '${printable(site.id)}' has no order #${number}`
            : done.error.message,
        );
      const shipped = [carrier, trackingNumber].filter(Boolean).join(' ');
      const link = trackingUrl(carrier, trackingNumber);
      io.out(
        `Fulfilled order #${number}${shipped ? ` (${printable(shipped)})` : ''}; ` +
          (notify ? 'the shipping e-mail to the customer is in the outbox.' : 'no e-mail sent.'),
      );
      if (link) io.out(`Tracking: ${link}`);
      return 0;
    });
  },
});

const unfulfilCommand = defineCommand({
  name: 'orders unfulfil',
  positionals: [ORDER_NUMBER],
  options: { site: SITE },
  async run({ options, positionals }, io) {
    const number = Number(positionals[0]);
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, options.site);
      const done = await unfulfilOrder(handle.db, site.id, number, COMMAND_ACTOR);
      if (!done.ok)
        throw new UserError(
          done.error.type === 'ORDER_NOT_FOUND'
            ? `site '${printable(site.id)}' has no order #${number}`
            : done.error.message,
        );
      io.out(`Order #${number} is pending again (its shipment removed; the audit log keeps it).`);
      return 0;
    });
  },
});

export const commands: readonly Command[] = [listCommand, showCommand, refundCommand, fulfilCommand, unfulfilCommand];
