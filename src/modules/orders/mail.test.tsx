import { describe, expect, it } from 'vitest';
import type { Order } from './orderTypes';
import { newOrderEmail, orderConfirmationEmail } from './mail';

const XSS = '<script>alert("x")</script>';
const OUR_TAGS = new Set([
  '!doctype',
  'html',
  'head',
  'meta',
  'title',
  'body',
  'div',
  'h1',
  'h2',
  'p',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'strong',
  'span',
  'br',
  'a',
]);
// The layout's attributes (role="presentation" tables, width and align for the mail clients that ignore CSS) and the
// template's.
const OUR_ATTRIBUTES = new Set([
  'lang',
  'charset',
  'name',
  'content',
  'style',
  'role',
  'width',
  'align',
  'scope',
  'colspan',
  'href',
]);

const order = (over: Partial<Order> = {}): Order => ({
  id: 'ord_123',
  number: 42,
  websiteId: 'shop',
  email: 'ada@example.com',
  status: 'paid',
  currency: 'USD',
  subtotalCents: 7500,
  shippingCents: 600,
  taxCents: 666,
  discountCents: 750,
  grandTotalCents: 8016,
  taxName: 'Sales tax',
  pricesIncludeTax: false,
  shippingAddress: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    address1: '1 Main Street',
    address2: 'Apt 4',
    city: 'New York',
    country: 'US',
    region: 'NY',
    postalCode: '10001',
    phone: '',
  },
  shippingOption: { id: 'standard', name: 'Standard', amount: 600 },
  couponCode: 'WELCOME10',
  paymentProvider: 'test',
  createdAt: '2031-03-01T10:05:09.123Z',
  refundedTotalCents: 0,
  lines: [
    {
      position: 0,
      itemId: 'tee',
      sku: 'tee-m-red',
      title: 'Tee',
      productType: 1,
      attributes: { Size: 'M', Colour: 'Red' },
      additionalFields: '',
      additionalFieldsSummary: [],
      image: null,
      quantity: 2,
      unitPrice: 2500,
      lineTotal: 5000,
      refundedQuantity: 0,
    },
    {
      position: 1,
      itemId: 'mug',
      sku: 'mug-1',
      title: 'Engraved mug',
      productType: 1,
      attributes: {},
      additionalFields: '{"f1":"Happy birthday"}',
      additionalFieldsSummary: [{ title: 'Engraving', lines: ['Happy birthday'] }],
      image: null,
      quantity: 1,
      unitPrice: 2500,
      lineTotal: 2500,
      refundedQuantity: 0,
    },
  ],
  ...over,
});

const ctx = { siteTitle: 'Shop', orderUrl: 'https://shop.test/checkout/order/ord_123' };

describe('orderConfirmationEmail', () => {
  it('says what was bought, for how much, where it goes, and links the order', () => {
    const mail = orderConfirmationEmail(order(), ctx);
    expect(mail.subject).toBe('Order #42 confirmed — Shop');
    expect(mail.text).toBe(
      [
        'Thank you for your order at Shop.',
        '',
        'Order #42, placed 2031-03-01 10:05 UTC',
        '',
        'Items:',
        '- Tee (Size: M, Colour: Red)',
        '  Quantity: 2, $50.00',
        '- Engraved mug',
        '  Engraving: Happy birthday',
        '  Quantity: 1, $25.00',
        '',
        'Subtotal: $75.00',
        'Discount (WELCOME10): -$7.50',
        'Shipping (Standard): $6.00',
        'Sales tax: $6.66',
        'Total: $80.16',
        '',
        'Shipping to:',
        'Ada Lovelace',
        '1 Main Street',
        'Apt 4',
        'New York, NY 10001',
        'United States',
        '',
        'View your order: https://shop.test/checkout/order/ord_123',
        '',
        'Shop',
        '',
      ].join('\n'),
    );
    expect(mail.html).toContain(
      '<th scope="col" style="padding:8px;border-bottom:1px solid #dddddd;vertical-align:top;text-align:left">Item</th>',
    );
    expect(mail.html).toContain('>$80.16</td>');
    expect(mail.html).toContain('>Discount (WELCOME10)</th>');
    expect(mail.html).toContain('>-$7.50</td>');
    expect(mail.html).toContain(
      '<a href="https://shop.test/checkout/order/ord_123" style="color:#0b57d0">View your order</a>',
    );
    expect(mail.html).toContain('Ada Lovelace<br/>1 Main Street<br/>Apt 4<br/>New York, NY 10001<br/>United States');
    expect(mail.html).not.toMatch(/<style|<link|class=/);
    expect(mail.html).not.toContain('How to pay');
  });

  it('shows each amount in the order’s currency, and tax that prices include after the total', () => {
    const eur = order({
      currency: 'EUR',
      pricesIncludeTax: true,
      taxName: 'VAT',
      taxCents: 1336,
      grandTotalCents: 7350,
      discountCents: 0,
      couponCode: null,
    });
    const mail = orderConfirmationEmail(eur, ctx);
    expect(mail.text).toContain('Subtotal: €75.00\nShipping (Standard): €6.00\nTotal: €73.50\nIncludes VAT: €13.36\n');
    expect(mail.text).not.toContain('Discount');
    expect(mail.html).toContain('>Includes VAT</th>');

    const yen = orderConfirmationEmail(
      order({
        currency: 'JPY',
        subtotalCents: 123456,
        grandTotalCents: 123456,
        discountCents: 0,
        taxCents: 0,
        shippingOption: null,
        shippingAddress: null,
      }),
      ctx,
    );
    expect(yen.text).toContain('Subtotal: ¥123,456\nTotal: ¥123,456\n');
    expect(yen.text).not.toMatch(/Shipping|tax/);
    const nok = orderConfirmationEmail(order({ currency: 'NOK', grandTotalCents: 123450 }), ctx);
    expect(nok.text).toContain('Total: NOK\u00a01,234.50');
  });

  it('gives manual payment instructions only while the order awaits payment', () => {
    const manualInstructions = 'Pay to IBAN NO93 8601 1117 947.\nWrite your order number <42> on the transfer.';
    const awaiting = orderConfirmationEmail(order({ status: 'awaiting-payment', paymentProvider: 'manual' }), {
      ...ctx,
      manualInstructions,
    });
    expect(awaiting.subject).toBe('Order #42 received, awaiting payment — Shop');
    expect(awaiting.text).toContain(`Awaiting payment of $80.16.\n\nHow to pay:\n${manualInstructions}\n`);
    expect(awaiting.html).toContain('How to pay</h2>');
    expect(awaiting.html).toContain(
      'Pay to IBAN NO93 8601 1117 947.<br/>Write your order number &lt;42&gt; on the transfer.',
    );

    const paid = orderConfirmationEmail(order({ status: 'paid' }), { ...ctx, manualInstructions });
    expect(paid.text).not.toContain('IBAN');
    expect(paid.html).not.toContain('IBAN');
    expect(paid.text).not.toContain('Awaiting payment');
  });

  it('escapes every shopper- and merchant-supplied value in the HTML', () => {
    const hostile = order({
      couponCode: XSS,
      shippingOption: { id: 's', name: XSS, amount: 600 },
      taxName: XSS,
      email: `"${XSS}"@example.com`,
      shippingAddress: {
        ...order().shippingAddress!,
        firstName: XSS,
        lastName: '<img src=x onerror=alert(1)>',
        address1: XSS,
        city: '"><b>',
      },
      lines: [
        {
          ...order().lines[1]!,
          title: XSS,
          attributes: { [XSS]: XSS },
          additionalFieldsSummary: [{ title: XSS, lines: [XSS, '<b>bold</b>'] }],
        },
      ],
    });
    const context = {
      siteTitle: `Shop ${XSS}`,
      orderUrl: 'https://shop.test/checkout/order/"><script>x</script>',
      manualInstructions: XSS,
    };
    for (const mail of [
      orderConfirmationEmail({ ...hostile, status: 'awaiting-payment' }, context),
      newOrderEmail(hostile, context),
    ]) {
      expect(mail.html).not.toContain('<script');
      expect(mail.html).not.toContain('<img');
      expect(mail.html).not.toContain('<b>');
      // Only our own markup: the tags and attributes the template writes, nothing a value brought in.
      const tags = new Set([...mail.html.matchAll(/<\/?([a-z0-9!]+)/gi)].map((m) => m[1]!.toLowerCase()));
      expect([...tags].filter((t) => !OUR_TAGS.has(t))).toEqual([]);
      const openTags = [...mail.html.matchAll(/<[a-z][^>]*>/gi)].map((m) => m[0].replace(/"[^"]*"/g, '""'));
      const attributes = new Set(
        openTags.flatMap((tag) => [...tag.matchAll(/\s([a-z-]+)=/gi)].map((m) => m[1]!.toLowerCase())),
      );
      expect([...attributes].filter((a) => !OUR_ATTRIBUTES.has(a))).toEqual([]);
      expect(mail.html).toContain('href="https://shop.test/checkout/order/&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
      expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      // The text is plain text: what was typed, as typed.
      expect(mail.text).toContain(XSS);
    }
  });

  it('keeps the subject on one line whatever the site title holds', () => {
    const mail = orderConfirmationEmail(order(), { ...ctx, siteTitle: 'Shop\r\nBcc: eve@evil.test' });
    expect(mail.subject).toBe('Order #42 confirmed — Shop Bcc: eve@evil.test');
    expect(newOrderEmail(order(), { ...ctx, siteTitle: 'Shop\nX' }).subject).not.toMatch(/[\r\n]/);
  });
});

describe('newOrderEmail', () => {
  it('tells the shop who ordered, whether it is paid, and what to send where', () => {
    const mail = newOrderEmail(order(), ctx);
    expect(mail.subject).toBe('New order #42 ($80.16) — Shop');
    expect(mail.text).toContain(
      'New order #42 on Shop.\n\nCustomer: ada@example.com\nPayment: paid (test)\nPlaced: 2031-03-01 10:05 UTC\n',
    );
    expect(mail.text).toContain('- Engraved mug\n  Engraving: Happy birthday\n  Quantity: 1, $25.00\n');
    expect(mail.text).toContain('Total: $80.16\n\nShipping to:\nAda Lovelace\n');
    expect(mail.text).toContain('Order: https://shop.test/checkout/order/ord_123\n');
    expect(mail.html).toContain('<caption');
    expect(mail.html).toContain('<th scope="row"');

    const awaiting = newOrderEmail(order({ status: 'awaiting-payment', paymentProvider: 'manual' }), ctx);
    expect(awaiting.subject).toBe('New order #42 ($80.16, awaiting payment) — Shop');
    expect(awaiting.text).toContain('Payment: awaiting payment (manual)');
  });
});
