/**
 * The project rule for the checkout, checked with fast-check on SQLite and PostgreSQL: bad input anywhere — body,
 * query, cookie, Host and the other headers — to the checkout calls (POST /api/commerce/checkout/quote and /orders)
 * and pages (GET and POST /checkout, GET /checkout/order/{id}, GET /commerce/goto-checkout) gets a clear answer
 * (< 500; for /api/ paths the `{ code, message, type }` body with a message that names the problem, for pages an HTML
 * page that says what was wrong), and nothing stored is lost or half-written: no order, order line, e-mail (outbox),
 * coupon use or order number appears, stock and carts stay as they were. Every generated order is refused (no
 * generator sends the approved test card), so the only row a request may leave is the payment attempt of a declined
 * card — the idempotency ledger, status 'declined', no order — which each run then removes again.
 *
 * Requests go through `app.inject`; the few paths its URL parser refuses go over a socket to the listening app.
 */
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_CARDS } from '../../src/core/checkout/card';
import { buildApp } from '../../src/server/app';
import { ERROR_STATUS } from '../../src/platform/http/errors';
import { paymentProviderFor } from '../../src/modules/payments';
import type { PaymentProvider } from '../../src/modules/payments/provider';
import { OTHER_HOST, otherSite } from '../support/cartSite';
import { checkoutSite, DECLINED_CARD, NEW_YORK, seedSite, SHOP_HOST, TEST_CARD } from '../support/checkoutSite';
import { forEachEngine } from '../support/engines';
import { rawRequest } from '../support/rawHttp';
import { sendCrumbs } from '../support/crumb';

const ENTRIES_API = '/api/commerce/shopping-cart/entries';
const QUOTE_API = '/api/commerce/checkout/quote';
const ORDERS_API = '/api/commerce/checkout/orders';
const CHECKOUT = '/checkout';
const ORDER_PAGE = '/checkout/order/';
const GOTO_CHECKOUT = '/commerce/goto-checkout';
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Each property's timeout: the runs are bounded, this only catches a hang. */
const PROPERTY_TIMEOUT_MS = 120_000;
/** The runs of each property: 1,280 per engine, under 10 s per engine on two cores. */
const RUNS = {
  jsonBodies: 300,
  orderBodies: 300,
  cookies: 120,
  contentTypes: 100,
  form: 300,
  orderPages: 100,
  gotoCheckout: 60,
} as const;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
interface Req {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

// ---------------------------------------------------------------- arbitraries

/** A character a real client can put in a header value (Node's check: tab, 0x20–0x7e, 0x80–0xff). */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constant('\t') },
);
const headerText = (maxLength = 60) => fc.string({ unit: headerChar, maxLength });
const utf8AsHeader = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const KB10 = 'x'.repeat(10 * 1024);
/** Text a shopper would never type, for any text field. */
const hostileText = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\t\n',
      '\u0000',
      'a\u0000b',
      '\uD800',
      '\uDFFF\uD800',
      '😀',
      '３',
      '\u202E',
      '\uFEFF',
      'ß',
      'İ',
      'ﬀ',
      'NaN',
      'Infinity',
      '-0',
      '1e309',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'null',
      'true',
      '{}',
      '[]',
      '{"a":',
      "'; DROP TABLE orders; --",
      '<script>alert(1)</script>',
      '%00',
      '%zz',
      'x'.repeat(11),
      'x'.repeat(21),
      'x'.repeat(41),
      'x'.repeat(65),
      'x'.repeat(101),
      'x'.repeat(201),
      'x'.repeat(321),
      KB10,
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 300, maxLength: 400 }) },
);
/** Any JSON value where text is expected: wrong types, deep values, huge text. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      0,
      -1,
      1.5,
      2 ** 53 + 1,
      Number.MAX_VALUE,
      true,
      false,
      null,
      [],
      {},
      [1],
      ['a', 'b'],
      { a: 1 },
    ),
  },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const COUNTRIES = [
  'US',
  'us',
  ' US ',
  'CA',
  'GB',
  'FR',
  'XX',
  'ZZZ',
  'USA',
  'U',
  '',
  '__PROTO__',
  'CONSTRUCTOR',
  'US-NY',
  '１２',
  'ÜS',
  'x'.repeat(10),
  'x'.repeat(11),
];
const REGIONS = [
  'NY',
  'ny',
  'US-NY',
  'CA',
  'ON',
  'XX',
  '',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'NY ',
  'x'.repeat(20),
  'x'.repeat(21),
];
/** A shipping address with every field possibly absurd (absurd country and region codes most of all). */
const fuzzedAddress = fc.record(
  {
    firstName: fc.oneof(fc.constant(NEW_YORK.firstName), hostileValue),
    lastName: fc.oneof(fc.constant(NEW_YORK.lastName), hostileValue),
    address1: fc.oneof(fc.constant(NEW_YORK.address1), hostileValue),
    address2: fc.oneof(fc.constant(''), hostileValue),
    city: fc.oneof(fc.constant(NEW_YORK.city), hostileValue),
    country: fc.oneof(fc.constantFrom<unknown>(...COUNTRIES), hostileValue),
    region: fc.oneof(fc.constantFrom<unknown>(...REGIONS), hostileValue),
    postalCode: fc.oneof(
      fc.constantFrom<unknown>('10001', '10001-1234', '1000', 'K1A 0B1', 'SW1A 1AA', ''),
      hostileValue,
    ),
    phone: fc.oneof(fc.constantFrom<unknown>('', '+1 212 555 0100', '------', '1'.repeat(41)), hostileValue),
  },
  { requiredKeys: [] },
);

const COUPONS = [
  'WELCOME10',
  'welcome10',
  ' FIVEOFF ',
  'ONCE',
  'PEREMAIL',
  'OLD',
  'NOPE',
  '',
  KB10,
  'x'.repeat(64),
  'x'.repeat(65),
];
const EMAILS = [
  'ada@example.com',
  'ADA@example.com',
  'grace@example.com',
  'not-an-email',
  '@',
  'a@b',
  `${'a'.repeat(64)}@example.com`,
  `${'a'.repeat(310)}@example.com`,
];

/** Idempotency keys of every shape: valid ones (16–100 of [A-Za-z0-9_-]), too short, too long, other characters, other types. */
const KEY_CHARS = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-');
const validKey = fc.string({ unit: KEY_CHARS, minLength: 16, maxLength: 100 });
const idempotencyKey: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: validKey },
  { weight: 1, arbitrary: fc.string({ unit: KEY_CHARS, minLength: 0, maxLength: 15 }) },
  { weight: 1, arbitrary: fc.string({ unit: KEY_CHARS, minLength: 101, maxLength: 200 }) },
  { weight: 1, arbitrary: validKey.map((k) => `${k}=`) },
  { weight: 1, arbitrary: validKey.map((k) => `${k.slice(0, 8)}\u0000${k.slice(8)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      'a'.repeat(16).replace('a', 'é'),
      ' '.repeat(20),
      `${'a'.repeat(16)}\n`,
      '../../etc/passwd/xx',
      KB10,
    ),
  },
  { weight: 2, arbitrary: hostileValue },
);

/** The digits of a card text as the test provider reads them. */
const cardDigits = (text: string) => text.replace(/[\s\p{Cc}-]/gu, '');
const APPROVED_DIGITS = cardDigits(TEST_CARDS.approved);
const luhnComplete = (digits: string): string => {
  for (let check = 0; check <= 9; check++) {
    const candidate = `${digits}${check}`;
    let sum = 0;
    for (let i = 0; i < candidate.length; i++) {
      const d = Number(candidate[candidate.length - 1 - i]);
      const doubled = i % 2 === 1 ? d * 2 : d;
      sum += doubled > 9 ? doubled - 9 : doubled;
    }
    if (sum % 10 === 0) return candidate;
  }
  return digits;
};
const digitString = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
/** Card numbers of random digits (Luhn-valid or not, spaced or not) — never the approved test card. */
const cardNumber: fc.Arbitrary<unknown> = fc
  .oneof(
    { weight: 3, arbitrary: digitString(0, 25) },
    { weight: 3, arbitrary: digitString(11, 18).map(luhnComplete) },
    { weight: 1, arbitrary: digitString(12, 19).map((d) => d.replace(/(\d{4})/g, '$1 ').trim()) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(
        TEST_CARDS.declined,
        '4242 4242 4242 4241',
        '4242-4242-4242-424',
        '４２４２４２４２４２４２４２４２',
        4000000000000002,
      ),
    },
    { weight: 2, arbitrary: hostileValue },
  )
  .filter((n) => !(typeof n === 'string' && cardDigits(n) === APPROVED_DIGITS) && n !== Number(APPROVED_DIGITS));

/** `payment` objects: a declined card, cards with random fields, objects with many or long keys, other types. */
const payment: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<unknown>(DECLINED_CARD) },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        cardNumber,
        cardExpiry: fc.oneof(
          fc.constantFrom<unknown>('12 / 34', '1234', '13/34', '00/00', '12/2099', '12/20', '12 / 3', '/'),
          hostileValue,
        ),
        cardCvc: fc.oneof(fc.constantFrom<unknown>('123', '12', '12345', 'abc', 123), hostileValue),
      },
      { requiredKeys: [] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.dictionary(
          fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.constantFrom('x'.repeat(41), 'x'.repeat(5_000), 'toString', 'cardNumber '),
          ),
          hostileValue,
          { minKeys: 5, maxKeys: 30 },
        ),
        fc.boolean(),
      )
      .map(([extra, withCard]) => (withCard ? { ...extra, ...DECLINED_CARD } : extra)),
  },
  { weight: 1, arbitrary: hostileValue },
);

/** Place-order bodies with anything anywhere: most are refused by the schema (never the approved card). */
const anyShapeOrderBody = fc.record(
  {
    idempotencyKey,
    email: fc.oneof(fc.constantFrom<unknown>(...EMAILS), hostileValue),
    shippingAddress: fc.oneof({ weight: 5, arbitrary: fuzzedAddress }, { weight: 1, arbitrary: hostileValue }),
    shippingOptionId: fc.oneof(
      fc.constantFrom<unknown>('standard', 'express', 'canada-post', 'STANDARD', 'free', ''),
      hostileValue,
    ),
    couponCode: fc.oneof(fc.constantFrom<unknown>(...COUPONS), hostileValue),
    payment,
  },
  { requiredKeys: ['idempotencyKey', 'payment'] },
);

/** Text the schema takes (at most `max` characters, no NUL) that is still wrong for the field. */
const inBoundsText = (max: number) =>
  fc
    .oneof(
      { weight: 2, arbitrary: hostileText },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: Math.min(max, 40) }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: Math.min(max, 40) }) },
      { weight: 1, arbitrary: fc.constant('x'.repeat(max)) },
    )
    .map((t) => t.replaceAll('\u0000', '').slice(0, max));

/** One field of the valid order made wrong, within what the schema takes: [path, value]. */
const wrongField: fc.Arbitrary<[string, unknown]> = fc.oneof(
  inBoundsText(320).map((v): [string, unknown] => ['email', v]),
  fc.constantFrom(...EMAILS.filter((e) => e.length <= 320)).map((v): [string, unknown] => ['email', v]),
  inBoundsText(200).map((v): [string, unknown] => ['shippingAddress.firstName', v]),
  inBoundsText(200).map((v): [string, unknown] => ['shippingAddress.lastName', v]),
  inBoundsText(300).map((v): [string, unknown] => ['shippingAddress.address1', v]),
  inBoundsText(300).map((v): [string, unknown] => ['shippingAddress.address2', v]),
  inBoundsText(200).map((v): [string, unknown] => ['shippingAddress.city', v]),
  fc
    .oneof(fc.constantFrom(...COUNTRIES.filter((c) => c.length <= 10)), inBoundsText(10))
    .map((v): [string, unknown] => ['shippingAddress.country', v]),
  fc
    .oneof(fc.constantFrom(...REGIONS.filter((r) => r.length <= 20)), inBoundsText(20))
    .map((v): [string, unknown] => ['shippingAddress.region', v]),
  fc
    .oneof(fc.constantFrom('1000', '100011', 'K1A 0B1', 'ABCDE', '1 0 0 0 1'), inBoundsText(40))
    .map((v): [string, unknown] => ['shippingAddress.postalCode', v]),
  inBoundsText(40).map((v): [string, unknown] => ['shippingAddress.phone', v]),
  inBoundsText(64).map((v): [string, unknown] => ['shippingOptionId', v]),
  fc
    .oneof(fc.constantFrom(...COUPONS.filter((c) => c.length <= 64)), inBoundsText(64))
    .map((v): [string, unknown] => ['couponCode', v]),
  // Beyond the schema now and then: a 10 KB coupon code, an absurd country code.
  fc.constantFrom<[string, unknown]>(
    ['couponCode', KB10],
    ['shippingAddress.country', 'x'.repeat(11)],
    ['shippingAddress.region', 'x'.repeat(21)],
  ),
);

/** A card of random digits (never the approved one), its other fields and perhaps many more values. */
const shapedPayment: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(DECLINED_CARD.cardNumber) },
      { weight: 3, arbitrary: cardNumber.map((n) => (typeof n === 'string' ? n.slice(0, 200) : '')) },
    ),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(DECLINED_CARD.cardExpiry) },
      { weight: 1, arbitrary: fc.constantFrom('1234', '13/34', '00/00', '12/2099', '12/20', '12 / 3', '/') },
      { weight: 1, arbitrary: inBoundsText(200) },
    ),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(DECLINED_CARD.cardCvc) },
      { weight: 1, arbitrary: fc.constantFrom('12', '12345', 'abc') },
      { weight: 1, arbitrary: inBoundsText(200) },
    ),
    // Up to 7 more values keep within the 10 the schema takes; up to 12 go beyond it.
    fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      {
        weight: 2,
        arbitrary: fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), inBoundsText(200), { maxKeys: 7 }),
      },
      {
        weight: 1,
        arbitrary: fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), inBoundsText(200), {
          minKeys: 8,
          maxKeys: 12,
        }),
      },
    ),
  )
  .map(([cardNumber, cardExpiry, cardCvc, extra]) => ({ ...extra, cardNumber, cardExpiry, cardCvc }))
  .filter((p) => cardDigits(String(p.cardNumber)) !== APPROVED_DIGITS);

/**
 * Place-order bodies of the right shape — every value text the schema takes — with wrong values: the valid order with
 * a few fields made wrong (or none: then the card is what is refused), any idempotency key, a card of random digits.
 */
const shapedOrderBody = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: validKey }, { weight: 1, arbitrary: idempotencyKey }),
    fc.array(wrongField, { maxLength: 3 }),
    shapedPayment,
  )
  .map(([key, wrong, card]) => {
    const body: Record<string, unknown> = {
      idempotencyKey: key,
      email: 'ada@example.com',
      shippingAddress: { ...NEW_YORK },
      shippingOptionId: 'standard',
      payment: card,
    };
    for (const [path, value] of wrong) {
      const [head, tail] = path.split('.') as [string, string | undefined];
      if (tail === undefined) body[head] = value;
      else (body[head] as Record<string, unknown>)[tail] = value;
    }
    return body;
  });

const placeOrderBody = fc.oneof({ weight: 3, arbitrary: shapedOrderBody }, { weight: 1, arbitrary: anyShapeOrderBody });

/** Any JSON text, and text that is not JSON: bodies for the JSON calls. */
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const deepObject = (levels: number, key = 'a') => `${`{"${key}":`.repeat(levels)}1${'}'.repeat(levels)}`;
const PROTO_IN_PAYMENT =
  '{"payment":{"__proto__":{"cardNumber":"4242 4242 4242 4242"}},"idempotencyKey":"aaaaaaaaaaaaaaaaaaaa"}';
const BODY_300KB = JSON.stringify({ email: 'x'.repeat(300 * 1024) });
const RAW_BODIES = [
  '',
  ' ',
  'null',
  'true',
  '0',
  '"text"',
  '[]',
  '{}',
  '\uFEFF{}',
  '{"email":"a@b.co"}\u0000',
  '{"email":"a@b.co",}',
  "{'email':'a@b.co'}",
  '{"__proto__":{"polluted":true}}',
  '{"email":"a@b.co","__proto__":{"polluted":true}}',
  '{"shippingAddress":{"__proto__":{"polluted":true}}}',
  PROTO_IN_PAYMENT,
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"payment":{"constructor":{"prototype":{"polluted":true}}},"idempotencyKey":"aaaaaaaaaaaaaaaaaaaa"}',
  '{"email":"\\u0000"}',
  '{"couponCode":"\\ud800"}',
  '{"email":1e309}',
  deep(10_000),
  deepObject(10_000),
  deepObject(5_000, 'constructor'),
  `{"shippingAddress":${deepObject(5_000)}}`,
  `{"payment":${deepObject(5_000)},"idempotencyKey":"aaaaaaaaaaaaaaaaaaaa"}`,
  JSON.stringify({ couponCode: 'x'.repeat(200 * 1024) }),
  BODY_300KB,
  'email=a%40b.co&intent=place',
];
const jsonBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.anything({ maxDepth: 4, maxKeys: 6 }).map((v) => JSON.stringify(v) ?? '') },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)) },
  { weight: 4, arbitrary: placeOrderBody.map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v).slice(0, -1)) },
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'text/json',
  'text/plain',
  'text/plain; charset=utf-8',
  FORM_TYPE,
  `${FORM_TYPE}; charset=utf-8`,
  'multipart/form-data; boundary=----x',
  'multipart/form-data',
  'application/xml',
  'application/octet-stream',
  '*/*',
  '/',
  ';',
  '',
  ' ',
  'application/json, text/plain',
];
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<string | undefined>(...CONTENT_TYPES) },
  { weight: 2, arbitrary: headerText() },
  { weight: 2, arbitrary: fc.constant<string | undefined>(undefined) },
);

const HOSTS = [
  SHOP_HOST,
  `${SHOP_HOST}:8080`,
  `${SHOP_HOST}:`,
  `${SHOP_HOST}:99999`,
  `${SHOP_HOST}.`,
  'SHOP.TEST',
  OTHER_HOST,
  'localhost:3000',
  '127.0.0.1',
  '[::1]:3000',
  '[::1',
  '[]',
  ':',
  '..',
  '%00',
  'shop.test/evil',
  'user@shop.test',
  'x'.repeat(300),
  'x'.repeat(70_000),
  utf8AsHeader('bücher.example'),
  '__proto__',
  'constructor',
];
const host = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HOSTS) }, { weight: 1, arbitrary: headerText(80) });

/** A raw query string (no checkout route reads one): repeated and bracket keys, prototype names, bad %-escapes. */
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'intent',
          'email',
          'idempotencyKey',
          '__proto__',
          'constructor',
          'a[]',
          'a[b]',
          '',
          '%',
          '%zz',
          '%00',
        ),
        fc.string({ maxLength: 10 }),
      ),
      fc.oneof(
        fc.constantFrom('', 'place', '%', '%zz', '%E0%A4%A', '%00', 'x'.repeat(10_000), '=', '&'),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) =>
    pairs
      .map(([key, value]) => `${encodeURIComponent(key).replace(/%25/g, '%')}=${value.replace(/[#\s]/g, '')}`)
      .join('&'),
  );

// ---------------------------------------------------------------- form bodies (POST /checkout)

const FORM_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'address1',
  'address2',
  'city',
  'country',
  'region',
  'postalCode',
  'phone',
  'shippingOptionId',
  'couponCode',
  'cardNumber',
  'cardExpiry',
  'cardCvc',
  'paymentMethodId',
] as const;
const formKey = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom<string>(...FORM_FIELDS, 'intent', 'intent', 'idempotencyKey', 'idempotencyKey'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'email[]',
      'email[0]',
      'intent[]',
      'a.b',
      '',
      '%',
      '%zz',
      '%00',
      'intent ',
      'INTENT',
      'payment',
      'payment[cardNumber]',
      'shippingAddress[country]',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const formValue = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'place',
      'quote',
      'PLACE',
      'place ',
      'pay',
      '',
      'ada@example.com',
      'US',
      'NY',
      '10001',
      'standard',
      'WELCOME10',
      DECLINED_CARD.cardNumber,
      '12 / 34',
      '123',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%',
      '%zz',
      '%E0%A4%A',
      '%00',
      '%C0%AE',
      '+',
      '=',
      '==',
      '&',
      'x'.repeat(321),
      KB10,
      '%u0041',
    ),
  },
  { weight: 1, arbitrary: validKey },
  { weight: 1, arbitrary: cardNumber.map((n) => (typeof n === 'string' ? n : String(n))) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);
type Pair = [key: string, value: string, encode: boolean, bare: boolean];
const formPair = fc.tuple(formKey, formValue, fc.boolean(), fc.boolean());
/** %-encodes as a browser does; a lone surrogate (which `binary` strings hold now and then) as U+FFFD, as it would. */
const percentEncode = (text: string) =>
  encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
const encodePairs = (pairs: readonly Pair[], separator = '&') =>
  pairs
    .map(([key, value, encode, bare]) => {
      const k = encode ? percentEncode(key) : key;
      if (bare) return k;
      return `${k}=${encode ? percentEncode(value) : value}`;
    })
    .join(separator);
/** The whole form as the page posts it, with the declined card: a valid post but for the payment. */
const fullForm = (key: string, intent: string | undefined): Pair[] => {
  const values: Record<string, string> = {
    email: 'ada@example.com',
    ...NEW_YORK,
    shippingOptionId: 'standard',
    couponCode: '',
    ...DECLINED_CARD,
    idempotencyKey: key,
  };
  if (intent !== undefined) values.intent = intent;
  return Object.entries(values).map(([k, v]) => [k, v, true, false]);
};
const formBody = fc.oneof(
  // Arbitrary pairs: repeated keys, missing or unknown intents, bad %-escapes.
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.array(formPair, { maxLength: 12 }), fc.constantFrom('&', ';', '&&'))
      .map(([pairs, separator]) => encodePairs(pairs, separator)),
  },
  // The full form with some of its fields changed, repeated or dropped: deep into placing the order.
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        validKey,
        fc.constantFrom<string | undefined>('place', 'place', 'place', 'quote', undefined, 'pay', ''),
        fc.oneof(fc.constant<Pair[]>([]), fc.array(formPair, { maxLength: 4 })),
        fc.oneof(fc.constant<number[]>([]), fc.array(fc.nat({ max: 16 }), { maxLength: 2 })),
        fc.boolean(),
      )
      .map(([key, intent, extra, dropped, extraFirst]) => {
        const base = fullForm(key, intent).filter((_, i) => !dropped.includes(i));
        return encodePairs(extraFirst ? [...extra, ...base] : [...base, ...extra]);
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '&',
      '=',
      '&&&',
      'intent=place',
      'intent=place&intent=place',
      'intent=quote&intent=place',
      'intent',
      `${'a'.repeat(300 * 1024)}=1`,
    ),
  },
);

// ---------------------------------------------------------------- answers

/** Whether the path of `url` is `prefix` and one non-empty segment. */
const isOneSegmentUnder = (prefix: string, url: string): boolean => {
  const path = url.split('?')[0] ?? '';
  return path.startsWith(prefix) && path.length > prefix.length && !path.slice(prefix.length).includes('/');
};

const show = (value: unknown): string => {
  const text =
    typeof value === 'string'
      ? value
      : JSON.stringify(value, (_k, v: unknown) => (Buffer.isBuffer(v) ? `<${v.length} bytes>` : v));
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
};

/** Zod's own texts ("Invalid input: expected object, received array"): they name no field and read as jargon. */
const RAW_VALIDATOR_TEXT = /Invalid input|Invalid key|Unrecognized key|expected \w+, received/;
/** Longest message that still reads as one sentence (one that quotes a 10 KB key is no clear error). */
const MAX_MESSAGE_LENGTH = 300;

function expectClearMessage(message: unknown, where: string): void {
  expect(typeof message, where).toBe('string');
  const text = message as string;
  expect(text.trim().length, where).toBeGreaterThan(0);
  expect(text.length, where).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
  expect(text, where).not.toMatch(RAW_VALIDATOR_TEXT);
}

/** The text of a page's error: the error page's paragraph, the checkout form's alert, or the empty cart's text. */
const pageMessage = (html: string): string | undefined =>
  /<h1>[^<]*<\/h1><p>([^<]*)<\/p>/.exec(html)?.[1] ??
  /role="alert"[^>]*>\s*<h[12][^>]*>([^<]*)</.exec(html)?.[1] ??
  /class="checkout-empty"><p>([^<]*)</.exec(html)?.[1];

/**
 * < 500. An error on /api/ (or any non-page answer) is the JSON `{ code, message, type }` with a documented code and
 * its status, and a clear message; an error page is HTML that says what was wrong.
 */
function expectClearAnswer(
  status: number,
  headers: Record<string, unknown>,
  text: string,
  req: { method: string; url: string },
  label: string,
): void {
  const where = `${label}\n→ ${status} ${show(text)}`;
  expect(status, where).toBeLessThan(500);
  if (req.method === 'HEAD' || status < 400) return;
  const type = String(headers['content-type'] ?? '');
  if (req.url.startsWith('/api/') || !type.startsWith('text/html')) {
    expect(type, where).toMatch(/^application\/json/);
    let body: unknown;
    expect(() => (body = JSON.parse(text)), where).not.toThrow();
    const {
      message,
      code,
      type: trackedType,
      field,
    } = (body ?? {}) as { message?: unknown; code?: unknown; type?: unknown; field?: unknown };
    expect(Object.keys(ERROR_STATUS), where).toContain(code);
    expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], where).toBe(status);
    expect(typeof trackedType, where).toBe('string');
    expectClearMessage(message, where);
    // A validation error names its field first ("couponCode must be at most 64 characters.").
    if (typeof field === 'string') expect((message as string).startsWith(`${field} `), where).toBe(true);
  } else {
    expect(text, where).toMatch(/^<!doctype html>/i);
    if (status !== 404) expectClearMessage(pageMessage(text), where);
  }
}

/** Counts what the payment provider is asked; no generated request may get as far as a capture. */
function countingProvider() {
  const inner = paymentProviderFor({ provider: 'test', manualInstructions: '' }, {});
  const calls = { authorize: 0, authorized: 0, capture: 0, void: 0 };
  const provider: PaymentProvider = {
    name: inner.name,
    notice: inner.notice,
    authorize: async (req) => {
      calls.authorize++;
      const outcome = await inner.authorize(req);
      if (outcome.status === 'authorized') calls.authorized++;
      return outcome;
    },
    capture: (ref, amount, key) => (calls.capture++, inner.capture(ref, amount, key)),
    void: (ref, key) => (calls.void++, inner.void(ref, key)),
    refund: (ref, amount, key) => inner.refund(ref, amount, key),
  };
  return { provider, calls };
}

// ---------------------------------------------------------------- the tests

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let port: number;
  const payments = countingProvider();
  /** The shopper's open cart (four lines: physical, on sale, digital) and its cookie. */
  let cartCookie: string;
  let otherCartCookie: string;
  /** The cart of the order placed before the runs (purchased). */
  let purchasedCookie: string;
  let placedOrderId: string;
  let before: Awaited<ReturnType<typeof snapshot>>;

  const snapshot = async () => {
    const db = getDb();
    return {
      sites: await db.selectFrom('sites').selectAll().orderBy('id').execute(),
      carts: await db.selectFrom('carts').selectAll().orderBy('id').execute(),
      entries: await db.selectFrom('cart_entries').selectAll().orderBy('id').execute(),
      stock: await db
        .selectFrom('variants')
        .select(['site_id', 'sku', 'qty_in_stock', 'unlimited', 'price'])
        .orderBy('site_id')
        .orderBy('sku')
        .execute(),
      orders: await db.selectFrom('orders').selectAll().orderBy('id').execute(),
      orderLines: await db.selectFrom('order_lines').selectAll().orderBy('order_id').orderBy('position').execute(),
      orderCounters: await db.selectFrom('order_counters').selectAll().orderBy('site_id').execute(),
      outbox: await db.selectFrom('outbox').selectAll().orderBy('id').execute(),
      payments: await db.selectFrom('payments').selectAll().orderBy('id').execute(),
      couponUsage: await db.selectFrom('coupon_usage').selectAll().orderBy('site_id').orderBy('code').execute(),
      couponEmailUses: await db
        .selectFrom('coupon_email_uses')
        .selectAll()
        .orderBy('site_id')
        .orderBy('code')
        .orderBy('email')
        .execute(),
    };
  };

  /**
   * Nothing stored changed — but for the payment attempt a declined card leaves (402: the idempotency ledger keeps what
   * the shopper was told, so a retry with the key answers the same). That row is checked, then removed, so that every
   * run starts from the same rows.
   */
  const expectNothingStored = async (status: number, label: string) => {
    const after = await snapshot();
    const known = new Set(before.payments.map((p) => p.id));
    const added = after.payments.filter((p) => !known.has(p.id));
    if (status === 402) {
      expect(added, `a declined card leaves one declined attempt: ${label}`).toHaveLength(1);
      expect(added[0], label).toMatchObject({ status: 'declined', order_id: null, provider_reference: null });
      await getDb()
        .deleteFrom('payments')
        .where(
          'id',
          'in',
          added.map((p) => p.id),
        )
        .execute();
    }
    expect(
      { ...after, payments: after.payments.filter((p) => known.has(p.id)) },
      `stored rows changed after ${label} → ${status}`,
    ).toEqual(before);
    expect(added.length, `a payment attempt was left by a ${status} answer: ${label}`).toBeLessThanOrEqual(
      status === 402 ? 1 : 0,
    );
    expect(payments.calls, label).toMatchObject({ authorized: 0, capture: 0, void: 0 });
    expect(({} as Record<string, unknown>).polluted, label).toBeUndefined();
  };

  const label = (req: Req) =>
    `${req.method} ${show(req.url)} headers=${show(req.headers)}${req.payload !== undefined ? ` payload=${show(Buffer.isBuffer(req.payload) ? `<${req.payload.length} bytes>` : req.payload)}` : ''}`;

  async function send(req: Req): Promise<{
    statusCode: number;
    headers: Record<string, unknown>;
    text: string;
    url: string;
    response?: LightMyRequestResponse;
  }> {
    const options: InjectOptions = { method: req.method, url: req.url, headers: req.headers };
    if (req.payload !== undefined) options.payload = req.payload;
    try {
      const response = await app.inject(options);
      return {
        statusCode: response.statusCode,
        headers: response.headers,
        text: response.body,
        url: response.raw.req.url ?? '/',
        response,
      };
    } catch (error) {
      // inject's own URL parser refuses some paths (CR LF, `/\`) before the app sees them; a client can send them.
      if ((error as { code?: unknown }).code !== 'ERR_INVALID_URL') throw error;
      const raw = await rawRequest(port, serialize(req));
      return { statusCode: raw.status, headers: raw.headers, text: raw.body, url: req.url };
    }
  }

  /** Sends `req`, checks the answer is clear and that nothing is stored; returns the answer. */
  async function check(req: Req) {
    const answer = await send(req);
    expectClearAnswer(
      answer.statusCode,
      answer.headers,
      answer.text,
      { method: req.method, url: answer.url },
      label(req),
    );
    await expectNothingStored(answer.statusCode, label(req));
    return answer;
  }

  const json = (headers: Record<string, string> = {}) => ({
    host: SHOP_HOST,
    'content-type': 'application/json',
    ...headers,
  });
  const someCookie = () =>
    fc.constantFrom<string | undefined>(
      cartCookie,
      cartCookie,
      cartCookie,
      otherCartCookie,
      purchasedCookie,
      undefined,
    );

  beforeAll(async () => {
    const db = getDb();
    await seedSite(db, checkoutSite);
    await seedSite(db, otherSite);
    // The limits are not under test here; thousands of requests come from one address.
    app = sendCrumbs(
      await buildApp({ db, engine, cartRateLimitPerMinute: 1_000_000_000, paymentsFor: () => payments.provider }),
    );
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    port = Number(new URL(address).port);

    const add = async (payload: object, cookie?: string, host = SHOP_HOST) => {
      const response = await app.inject({
        method: 'POST',
        url: ENTRIES_API,
        headers: json({ host, ...(cookie ? { cookie } : {}) }),
        payload: JSON.stringify(payload),
      });
      expect(response.statusCode, response.body).toBe(200);
      return cookie ?? `CART=${response.cookies.find((c) => c.name === 'CART')!.value}`;
    };
    // An order placed before the runs (it used the once-per-e-mail coupon): its page exists, its cart is bought.
    purchasedCookie = await add({ itemId: 'limited', sku: 'limited-1', quantity: 1 });
    const placed = await app.inject({
      method: 'POST',
      url: ORDERS_API,
      headers: json({ cookie: purchasedCookie }),
      payload: JSON.stringify({
        idempotencyKey: 'placed-before-the-runs-0001',
        email: 'ada@example.com',
        shippingAddress: NEW_YORK,
        shippingOptionId: 'standard',
        couponCode: 'PEREMAIL',
        payment: TEST_CARD,
      }),
    });
    expect(placed.statusCode, placed.body).toBe(201);
    placedOrderId = placed.json().order.id;

    cartCookie = await add({ itemId: 'limited', sku: 'limited-1', quantity: 2 });
    await add({ itemId: 'tee', sku: 'tee-s-blue', quantity: 1 }, cartCookie);
    await add({ itemId: 'tee', sku: 'tee-s-red', quantity: 3 }, cartCookie);
    await add({ itemId: 'ebook', sku: 'ebook-1', quantity: 1 }, cartCookie);
    otherCartCookie = await add({ itemId: 'tee', quantity: 1 }, undefined, OTHER_HOST);

    Object.assign(payments.calls, { authorize: 0, authorized: 0, capture: 0, void: 0 });
    before = await snapshot();
    expect(before.orders).toHaveLength(1);
    expect(before.carts).toHaveLength(3);
    expect(before.entries).toHaveLength(6);
    expect(before.couponEmailUses).toHaveLength(1);
  });
  afterAll(async () => {
    await app?.close();
  });

  // ------------------------------------------------------------ 1. arbitrary JSON bodies

  it(
    'answers arbitrary JSON bodies to the quote and orders calls with a clear error or a quote, and stores nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(QUOTE_API, ORDERS_API),
          someCookie(),
          jsonBody,
          async (url, cookie, payload) => {
            await check({ method: 'POST', url, headers: json(cookie ? { cookie } : {}), payload });
          },
        ),
        { numRuns: RUNS.jsonBodies },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  // ------------------------------------------------------------ 2. structured but wrong orders

  it(
    'refuses place-order bodies with wrong values everywhere: no order, no e-mail, stock and cart untouched, the same answer twice',
    async () => {
      await fc.assert(
        fc.asyncProperty(placeOrderBody, someCookie(), fc.boolean(), async (body, cookie, twice) => {
          const req: Req = {
            method: 'POST',
            url: ORDERS_API,
            headers: json(cookie ? { cookie } : {}),
            payload: JSON.stringify(body),
          };
          const first = await send(req);
          expectClearAnswer(
            first.statusCode,
            first.headers,
            first.text,
            { method: 'POST', url: ORDERS_API },
            label(req),
          );
          expect(first.statusCode, label(req)).not.toBe(201);
          if (twice) {
            // A retry with the same key (a double click) is told the same thing, and places nothing either.
            const second = await send(req);
            expect([second.statusCode, JSON.parse(second.text).code], label(req)).toEqual([
              first.statusCode,
              JSON.parse(first.text).code,
            ]);
          }
          await expectNothingStored(first.statusCode, label(req));
        }),
        { numRuns: RUNS.orderBodies },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  // ------------------------------------------------------------ 3. cookies, hosts, content types

  const CART_TOKEN = () => cartCookie.slice('CART='.length);
  const cookiePart = () =>
    fc.oneof(
      fc.constantFrom(
        cartCookie,
        otherCartCookie,
        purchasedCookie,
        'CART=',
        'CART',
        'CART=x',
        `CART=${'A'.repeat(22)}`,
        `CART=${CART_TOKEN().toLowerCase()}`,
        `CART=${CART_TOKEN()} `,
        `CART="${CART_TOKEN()}"`,
        `CART=${CART_TOKEN()}%00`,
        `CART=${encodeURIComponent(`${CART_TOKEN()}\u0000`)}`,
        'CART=%E0%A4%A',
        'CART=%',
        `CART=${'x'.repeat(100_000)}`,
        'hasCart=true',
        'hasCart=%zz',
        '__proto__=1',
        'constructor=x',
        'toString=1',
        '=',
        '=x',
        ';',
        'a=b=c',
      ),
      fc.tuple(fc.constantFrom('CART', 'hasCart', 'cart'), headerText(40)).map(([k, v]) => `${k}=${v}`),
      headerText(40),
    );
  const cookieHeader = () =>
    fc
      .tuple(fc.array(cookiePart(), { minLength: 1, maxLength: 8 }), fc.constantFrom('; ', ';', ', ', ';;'))
      .map(([parts, separator]) => parts.join(separator));

  /** Every checkout route, each with a body that gets as far as it can (the order with the declined card). */
  const routes = (): Omit<Req, 'headers'>[] => [
    {
      method: 'POST',
      url: QUOTE_API,
      payload: JSON.stringify({
        email: 'ada@example.com',
        shippingAddress: { country: 'US', region: 'NY' },
        couponCode: 'WELCOME10',
      }),
    },
    {
      method: 'POST',
      url: ORDERS_API,
      payload: JSON.stringify({
        idempotencyKey: 'cookie-fuzz-key-000001',
        email: 'ada@example.com',
        shippingAddress: NEW_YORK,
        payment: DECLINED_CARD,
      }),
    },
    { method: 'GET', url: CHECKOUT },
    { method: 'POST', url: CHECKOUT, payload: encodePairs(fullForm('cookie-fuzz-key-000002', 'quote')) },
    { method: 'POST', url: CHECKOUT, payload: encodePairs(fullForm('cookie-fuzz-key-000003', 'place')) },
    { method: 'GET', url: `${ORDER_PAGE}${placedOrderId}` },
    { method: 'GET', url: GOTO_CHECKOUT },
  ];
  const typeFor = (url: string) => (url.startsWith('/api/') ? 'application/json' : FORM_TYPE);

  it(
    'answers arbitrary Cookie and Host headers (and query strings) on every checkout route clearly, and stores nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes()),
          cookieHeader(),
          host,
          fc.constantFrom('text/html', '*/*', 'application/json'),
          fc.option(queryString, { nil: undefined }),
          async (route, cookie, hostHeader, accept, query) => {
            const headers: Record<string, string> = { host: hostHeader, cookie, accept };
            if (route.payload !== undefined) headers['content-type'] = typeFor(route.url);
            await check({ ...route, url: query === undefined ? route.url : `${route.url}?${query}`, headers });
          },
        ),
        { numRuns: RUNS.cookies },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers every content type (text/plain, multipart, none, garbage) on the checkout posts clearly, and stores nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...routes().filter((r) => r.method === 'POST')),
          contentType,
          fc.oneof(
            fc.constant<string | undefined>(undefined),
            fc.constantFrom(
              '',
              '{}',
              'intent=place',
              '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\nplace\r\n--x--',
            ),
          ),
          someCookie(),
          fc.constantFrom('text/html', 'application/json'),
          async (route, type, otherPayload, cookie, accept) => {
            const headers: Record<string, string> = { host: SHOP_HOST, accept };
            if (cookie) headers.cookie = cookie;
            if (type !== undefined) headers['content-type'] = type;
            const answer = await check({ ...route, headers, payload: otherPayload ?? route.payload! });
            // The form's poster is told what the form takes, the API's caller what the API takes.
            if (answer.statusCode === 415)
              expect(answer.text).toContain(route.url.startsWith('/api/') ? 'application/json' : FORM_TYPE);
          },
        ),
        { numRuns: RUNS.contentTypes },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  // ------------------------------------------------------------ 4. the no-JavaScript form

  it(
    'answers arbitrary form posts to /checkout (repeated keys, no or unknown intent) with a page that says what was wrong, and stores nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          formBody,
          someCookie(),
          fc.constantFrom(FORM_TYPE, `${FORM_TYPE}; charset=utf-8`),
          async (payload, cookie, type) => {
            const headers: Record<string, string> = {
              host: SHOP_HOST,
              'content-type': type,
              accept: 'text/html,application/xhtml+xml',
            };
            if (cookie) headers.cookie = cookie;
            const answer = await check({ method: 'POST', url: CHECKOUT, headers, payload });
            // A browser posted the form: whatever happened, it gets a page (never JSON, never a redirect to an order).
            expect(
              String(answer.headers['content-type']),
              label({ method: 'POST', url: CHECKOUT, headers, payload }),
            ).toMatch(/^text\/html/);
            expect(answer.statusCode).not.toBe(303);
          },
        ),
        { numRuns: RUNS.form },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  // ------------------------------------------------------------ 5. order pages and express checkout

  const NASTY_SEGMENTS = [
    '..',
    '.',
    '%2e%2e',
    '%00',
    'a%00b',
    '%',
    '%%',
    '%zz',
    '%E0%A4%A',
    '%C0%AE',
    '%FF%FE',
    '%u0041',
    '%2F',
    '%5C',
    '\\',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    ' ',
    '%20',
    '+',
    '😀',
    '\uD800',
    'x'.repeat(22),
    'x'.repeat(64),
    'x'.repeat(65),
    'x'.repeat(101),
    'x'.repeat(5_000),
    "'; DROP TABLE orders; --",
    '<script>alert(1)</script>',
    '\r\n',
    ';',
    '*',
    ':',
    '@',
    '?x=1',
    '#x',
  ];
  /** Order ids: near misses of the real one, nasty segments, arbitrary text — %-encoded or raw. */
  const orderSegment = () =>
    fc.oneof(
      {
        weight: 2,
        arbitrary: fc
          .constantFrom(
            placedOrderId.toLowerCase(),
            placedOrderId.slice(1),
            `${placedOrderId}x`,
            `${placedOrderId} `,
            `${placedOrderId}\u0000`,
          )
          .map(encodeURIComponent),
      },
      { weight: 3, arbitrary: fc.constantFrom(...NASTY_SEGMENTS) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map(percentEncode) },
      { weight: 1, arbitrary: fc.string({ unit: KEY_CHARS, minLength: 1, maxLength: 64 }) },
    );

  it(
    'answers GET /checkout/order/{anything} with the not-found page, or a clear 400 for an address that cannot be read',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          orderSegment(),
          fc.constantFrom(SHOP_HOST, OTHER_HOST),
          fc.constantFrom('', '', '?x=1'),
          someCookie(),
          async (segment, hostName, suffix, cookie) => {
            const headers: Record<string, string> = { host: hostName, accept: 'text/html' };
            if (cookie) headers.cookie = cookie;
            const req: Req = { method: 'GET', url: `${ORDER_PAGE}${segment}${suffix}`, headers };
            const answer = await check(req);
            // Only the placed order's own address, on its own site, shows an order.
            expect(answer.statusCode, label(req)).not.toBe(200);
            expect(answer.text, label(req)).not.toContain('Thank you for your order');
            if (answer.statusCode === 400) expect(answer.text, label(req)).toMatch(/%-escape|too long|not allowed/);
            // One segment after /checkout/order/ (as the client's URL parser left it) is an order id: not found. More
            // segments (a `\` is a `/` to a URL parser) are some other page's address: not found, or its canonical form.
            else if (isOneSegmentUnder(ORDER_PAGE, answer.url)) expect(answer.statusCode, label(req)).toBe(404);
            else expect([301, 404], label(req)).toContain(answer.statusCode);
          },
        ),
        { numRuns: RUNS.orderPages },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'answers GET /commerce/goto-checkout with any cookie by a 303 to /checkout (an open cart) or the alert page, and stores nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(cookieHeader(), fc.constantFrom(SHOP_HOST, OTHER_HOST), async (cookie, hostName) => {
          const req: Req = {
            method: 'GET',
            url: GOTO_CHECKOUT,
            headers: { host: hostName, cookie, accept: 'text/html' },
          };
          const answer = await check(req);
          expect([303, 400], label(req)).toContain(answer.statusCode);
          if (answer.statusCode === 303) expect(answer.headers.location, label(req)).toBe(CHECKOUT);
          else expect(answer.text, label(req)).toContain('role="alert"');
        }),
        { numRuns: RUNS.gotoCheckout },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  // ------------------------------------------------------------ classic cases, by hand

  it('shows the placed order on its own site only', async () => {
    const own = await send({
      method: 'GET',
      url: `${ORDER_PAGE}${placedOrderId}`,
      headers: { host: SHOP_HOST, accept: 'text/html' },
    });
    expect(own.statusCode).toBe(200);
    expect(own.text).toContain('Thank you for your order');
    const other = await check({
      method: 'GET',
      url: `${ORDER_PAGE}${placedOrderId}`,
      headers: { host: OTHER_HOST, accept: 'text/html' },
    });
    expect(other.statusCode).toBe(404);
  });

  const order = (overrides: Record<string, unknown>) =>
    JSON.stringify({
      idempotencyKey: 'classic-case-key-00000001',
      email: 'ada@example.com',
      shippingAddress: NEW_YORK,
      shippingOptionId: 'standard',
      payment: DECLINED_CARD,
      ...overrides,
    });
  const CLASSIC: [name: string, make: () => Req, status: number, message?: string][] = [
    [
      'a declined card',
      () => ({ method: 'POST', url: ORDERS_API, headers: json({ cookie: cartCookie }), payload: order({}) }),
      402,
      'Your card was declined.',
    ],
    [
      'a 10 KB coupon code',
      () => ({
        method: 'POST',
        url: ORDERS_API,
        headers: json({ cookie: cartCookie }),
        payload: order({ couponCode: KB10 }),
      }),
      400,
      'couponCode must be at most 64 characters.',
    ],
    [
      'a NUL in the e-mail',
      () => ({
        method: 'POST',
        url: QUOTE_API,
        headers: json({ cookie: cartCookie }),
        payload: JSON.stringify({ email: 'a\u0000@b.co' }),
      }),
      400,
      'email must not contain a NUL character.',
    ],
    [
      'a __proto__ key in the payment',
      () => ({ method: 'POST', url: ORDERS_API, headers: json({ cookie: cartCookie }), payload: PROTO_IN_PAYMENT }),
      400,
      'must not contain the keys __proto__',
    ],
    [
      'a 300 KB body',
      () => ({ method: 'POST', url: QUOTE_API, headers: json({ cookie: cartCookie }), payload: BODY_300KB }),
      413,
    ],
    [
      'a multipart body to the quote',
      () => ({
        method: 'POST',
        url: QUOTE_API,
        headers: json({ cookie: cartCookie, 'content-type': 'multipart/form-data; boundary=x' }),
        payload: '--x--',
      }),
      415,
    ],
    [
      'a missing idempotency key',
      () => ({
        method: 'POST',
        url: ORDERS_API,
        headers: json({ cookie: cartCookie }),
        payload: JSON.stringify({ email: 'a@b.co' }),
      }),
      400,
      'idempotencyKey is required.',
    ],
    // Found by the properties (regressions): zod's own texts reached the shopper ("The request body Invalid input:
    // expected object, received string."), and an unknown or over-long name came back whole in the message.
    [
      'a text/plain body to the quote',
      () => ({
        method: 'POST',
        url: QUOTE_API,
        headers: json({ cookie: cartCookie, 'content-type': 'text/plain' }),
        payload: '{}',
      }),
      400,
      'The request body must be a JSON object.',
    ],
    [
      'an array as the quote body',
      () => ({ method: 'POST', url: QUOTE_API, headers: json({ cookie: cartCookie }), payload: '[]' }),
      400,
      'The request body must be a JSON object.',
    ],
    [
      'no body to the orders call',
      () => ({ method: 'POST', url: ORDERS_API, headers: { host: SHOP_HOST, cookie: cartCookie } }),
      400,
      'The request body must be a JSON object.',
    ],
    [
      'a shipping address that is text',
      () => ({
        method: 'POST',
        url: ORDERS_API,
        headers: json({ cookie: cartCookie }),
        payload: order({ shippingAddress: '1 Main Street' }),
      }),
      400,
      'shippingAddress must be a JSON object.',
    ],
    [
      'a payment that is null',
      () => ({
        method: 'POST',
        url: ORDERS_API,
        headers: json({ cookie: cartCookie }),
        payload: order({ payment: null }),
      }),
      400,
      'payment must be a JSON object of text values.',
    ],
    [
      'an unknown field',
      () => ({
        method: 'POST',
        url: QUOTE_API,
        headers: json({ cookie: cartCookie }),
        payload: JSON.stringify({ emial: 'a@b.co' }),
      }),
      400,
      'The request body has an unknown field "emial".',
    ],
    [
      'an unknown address field of 10 KB',
      () => ({
        method: 'POST',
        url: QUOTE_API,
        headers: json({ cookie: cartCookie }),
        payload: JSON.stringify({ shippingAddress: { [KB10]: 'x' } }),
      }),
      400,
      `shippingAddress has an unknown field "${'x'.repeat(40)}…".`,
    ],
    [
      'a payment value name of 5,000 characters',
      () => ({
        method: 'POST',
        url: ORDERS_API,
        headers: json({ cookie: cartCookie }),
        payload: order({ payment: { ...DECLINED_CARD, ['x'.repeat(5_000)]: '1' } }),
      }),
      400,
      'payment must have value names of at most 40 characters.',
    ],
    // Found by the properties (regression): a multipart post of the checkout form was told "must be JSON".
    [
      'a multipart post of the form',
      () => ({
        method: 'POST',
        url: CHECKOUT,
        headers: {
          host: SHOP_HOST,
          cookie: cartCookie,
          'content-type': 'multipart/form-data; boundary=x',
          accept: 'text/html',
        },
        payload: '--x--',
      }),
      415,
      'The form must be sent as application/x-www-form-urlencoded',
    ],
    [
      'a form post without intent (a quote)',
      () => ({
        method: 'POST',
        url: CHECKOUT,
        headers: { host: SHOP_HOST, cookie: cartCookie, 'content-type': FORM_TYPE, accept: 'text/html' },
        payload: 'email=ada%40example.com',
      }),
      200,
    ],
    [
      'a form post with the declined card',
      () => ({
        method: 'POST',
        url: CHECKOUT,
        headers: { host: SHOP_HOST, cookie: cartCookie, 'content-type': FORM_TYPE, accept: 'text/html' },
        payload: encodePairs(fullForm('classic-form-key-0000001', 'place')),
      }),
      402,
      'Your card was declined.',
    ],
    [
      'a form post with two e-mails',
      () => ({
        method: 'POST',
        url: CHECKOUT,
        headers: { host: SHOP_HOST, cookie: cartCookie, 'content-type': FORM_TYPE, accept: 'text/html' },
        payload: `${encodePairs(fullForm('classic-form-key-0000002', 'place'))}&email=b%40c.co`,
      }),
      402,
    ],
    [
      'a form post with two idempotency keys',
      () => ({
        method: 'POST',
        url: CHECKOUT,
        headers: { host: SHOP_HOST, cookie: cartCookie, 'content-type': FORM_TYPE, accept: 'text/html' },
        payload: `${encodePairs(fullForm('classic-form-key-0000003', 'place'))}&idempotencyKey=classic-form-key-0000004`,
      }),
      400,
      'idempotencyKey must be text.',
    ],
    [
      'express checkout without a cart',
      () => ({ method: 'GET', url: GOTO_CHECKOUT, headers: { host: SHOP_HOST, accept: 'text/html' } }),
      400,
    ],
    [
      'express checkout with the cart',
      () => ({
        method: 'GET',
        url: GOTO_CHECKOUT,
        headers: { host: SHOP_HOST, cookie: cartCookie, accept: 'text/html' },
      }),
      303,
    ],
    [
      'an order id with a NUL',
      () => ({ method: 'GET', url: `${ORDER_PAGE}%00`, headers: { host: SHOP_HOST, accept: 'text/html' } }),
      404,
    ],
  ];

  it.each(CLASSIC)('classic: %s', async (_name, make, status, message) => {
    const req = make();
    const answer = await check(req);
    expect(answer.statusCode, label(req)).toBe(status);
    if (message !== undefined) {
      const said = answer.url.startsWith('/api/')
        ? (JSON.parse(answer.text) as { message: string }).message
        : answer.text;
      expect(said, label(req)).toContain(message);
    }
  });
});

// ---------------------------------------------------------------- a raw exchange, for what inject cannot send

/** The request as a client writes it on the wire (UTF-8 request line, latin1 header values). */
function serialize(req: Req): Buffer {
  const payload =
    req.payload === undefined
      ? Buffer.alloc(0)
      : Buffer.isBuffer(req.payload)
        ? req.payload
        : Buffer.from(req.payload, 'utf8');
  const headers = Object.entries({
    ...req.headers,
    connection: 'close',
    ...(payload.length > 0 ? { 'content-length': String(payload.length) } : {}),
  });
  return Buffer.concat([
    Buffer.from(`${req.method} ${req.url} HTTP/1.1\r\n`, 'utf8'),
    Buffer.from(headers.map(([name, value]) => `${name}: ${value}\r\n`).join(''), 'latin1'),
    Buffer.from('\r\n'),
    payload,
  ]);
}
