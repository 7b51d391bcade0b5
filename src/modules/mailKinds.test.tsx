/**
 * Every module's e-mail, in the one layout: a name a shopper or merchant typed arrives escaped in the HTML (by React)
 * and as typed in the text, and the text part carries every link of the HTML part.
 */
import { describe, expect, it } from 'vitest';
import { registeredMailKinds } from '../platform/mail/kinds';
import type { RenderedEmail } from '../platform/mail/render';
import type { Order } from './orders/orderTypes';
import type { Subscription } from './subscriptions/store';
import { newsletterConfirmationEmail, submissionEmail } from './forms/mail';
import { giftCardEmail } from './giftCards/mail';
import { giftCardMailKinds } from './giftCards/mail';
import { MODULE_MAIL_KINDS, registerModuleMailKinds } from './mailKinds';
import { newOrderEmail, orderConfirmationEmail, orderMailKinds } from './orders/mail';
import { restockEmail } from './restock/mail';
import { subscriptionEmail } from './subscriptions/mail';

const NAME = '<b>&"';
const ESCAPED = '&lt;b&gt;&amp;&quot;';
const URL = 'https://shop.test/a?b=1&c=2';

const order = {
  id: 'ord_1',
  number: 7,
  websiteId: 'shop',
  email: 'ada@example.com',
  status: 'paid',
  currency: 'USD',
  subtotalCents: 1000,
  shippingCents: 0,
  taxCents: 0,
  discountCents: 0,
  grandTotalCents: 1000,
  taxName: 'Tax',
  pricesIncludeTax: false,
  shippingAddress: null,
  shippingOption: null,
  couponCode: null,
  paymentProvider: 'test',
  createdAt: '2031-03-01T10:05:09.123Z',
  lines: [
    {
      position: 0,
      itemId: 'tee',
      sku: 'tee',
      title: NAME,
      productType: 1,
      attributes: {},
      additionalFields: '',
      additionalFieldsSummary: [],
      image: null,
      quantity: 1,
      unitPrice: 1000,
      lineTotal: 1000,
    },
  ],
} as unknown as Order;

const subscription = {
  line: { title: NAME, attributes: {} },
  planText: '$10.00 every month',
  quantity: 1,
} as unknown as Subscription;

const mails: Record<string, RenderedEmail> = {
  'order confirmation': orderConfirmationEmail(order, { siteTitle: NAME, orderUrl: URL }),
  'new order': newOrderEmail(order, { siteTitle: NAME, orderUrl: URL }),
  'gift card': giftCardEmail({
    siteTitle: NAME,
    shopUrl: URL,
    amount: '$10.00',
    code: 'ABCD-EFGH',
    recipientName: NAME,
    from: NAME,
    message: NAME,
  }),
  restock: restockEmail({
    siteTitle: NAME,
    productName: NAME,
    variantLabel: null,
    productUrl: URL,
    unsubscribeUrl: `${URL}&unsubscribe`,
  }),
  subscription: subscriptionEmail('started', subscription, { siteTitle: NAME, cancelUrl: URL, nextBilling: null }),
  'form submission': submissionEmail({
    siteTitle: NAME,
    formName: NAME,
    answers: [{ title: NAME, lines: [NAME] }],
    pagePath: '/contact',
    submittedAt: '2031-03-01 10:05 UTC',
  }),
  'newsletter confirmation': newsletterConfirmationEmail({ siteTitle: NAME, confirmUrl: URL }),
};

const decode = (value: string) => value.replaceAll('&amp;', '&');

describe.each(Object.entries(mails))('the %s e-mail', (name, mail) => {
  it(`has ${NAME} escaped in the HTML (by React) and as typed in the text`, () => {
    expect(mail.html).toContain(ESCAPED);
    expect(mail.html).not.toContain(NAME);
    expect(mail.text).toContain(NAME);
    expect(mail.text).not.toContain(ESCAPED);
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('is one HTML document in the shared layout, and its text carries every link of the HTML', () => {
    expect(mail.html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(mail.html).toContain('<table role="presentation"');
    const links = [...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => decode(m[1]!));
    // A form submission tells the shop what was typed: it has no link.
    expect(links.length > 0).toBe(name !== 'form submission');
    for (const link of links) expect(mail.text).toContain(link);
    expect(mail.text.endsWith('\n')).toBe(true);
  });
});

describe('registerModuleMailKinds', () => {
  it('registers the kinds that are not sent as stored, again without harm', () => {
    registerModuleMailKinds();
    registerModuleMailKinds();
    expect(registeredMailKinds()).toEqual(['order-confirmation', 'new-order', 'gift-card']);
    // Named before their modules are loaded: the names are the modules' own.
    expect(MODULE_MAIL_KINDS.map((k) => k.kind)).toEqual([...orderMailKinds, ...giftCardMailKinds].map((k) => k.kind));
  });
});
