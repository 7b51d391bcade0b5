/**
 * The settings (/admin/settings, issue 26) on SQLite and PostgreSQL: an admin saves the store's settings (a minimum
 * subtotal typed as money, pay later), a shipping option (added, changed, removed), a tax rate and a coupon — each a
 * new version with its audit entry; bad input is refused with each field's reason and nothing is written; a store
 * manager edits coupons and nothing else; a viewer looks (no forms) and is refused a change; the page says which
 * secrets are set and never shows them; 'Send me a test e-mail' puts one in the outbox; the JSON twins save, refuse
 * bad input by field (400) and a stale save (409). Coupons, shipping options and tax rates are checked per item: saves of
 * others from the same version are kept, a save of the same one refused with what changed.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { CRUMB_COOKIE, CRUMB_FIELD, CRUMB_HEADER } from '../../src/core/crumb';
import { ContributorRole } from '../../src/core/enums';
import { listAudit } from '../../src/modules/admin';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { readSite, replaceSite } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import { buildApp } from '../../src/server/app';
import { checkoutSite, SHOP_HOST } from '../support/checkoutSite';
import { TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { addSiteUser, signIn } from '../support/siteUsers';

const SITE = 'shop';
const SECRET = 'sk_test_NeverShowThis123';

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  let admin: string;
  let adminEmail: string;
  let storeManager: string;
  let viewer: string;

  const get = (url: string, cookie?: string) =>
    app.inject({ method: 'GET', url, headers: { host: SHOP_HOST, ...(cookie ? { cookie } : {}) } });
  const json = (method: 'PUT' | 'DELETE' | 'POST', url: string, body: unknown, cookie: string) =>
    app.inject({
      method,
      url,
      headers: { host: SHOP_HOST, cookie, [CRUMB_HEADER]: TEST_CRUMB, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const form = async (section: string, fields: Record<string, string | string[]>, cookie: string) => {
    const params = new URLSearchParams({ baseVersion: String(await version()), [CRUMB_FIELD]: TEST_CRUMB });
    for (const [name, value] of Object.entries(fields))
      for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
    return app.inject({
      method: 'POST',
      url: `/admin/settings/${section}`,
      headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: params.toString(),
    });
  };
  const stored = async () => (await readSite(getDb(), SITE))!.site.website;
  const version = async () =>
    (await getDb().selectFrom('sites').select('version').where('id', '=', SITE).executeTakeFirstOrThrow()).version;
  const storeForm = (changes: Record<string, string> = {}) => ({
    currency: 'USD',
    minimumSubtotal: '0.00',
    payLaterMin: '1.00',
    payLaterMax: '2000.00',
    payLaterCountry: 'US',
    shopEmail: 'orders@shop.test',
    lowStockThreshold: '5',
    ...changes,
  });

  const importShop = async () => {
    const valid = validateSite(structuredClone(checkoutSite) as SiteFileInput);
    if (!valid.ok) throw new Error(valid.problems.join('\n'));
    await replaceSite(getDb(), valid.site, [], { stock: 'file' });
  };

  beforeAll(async () => {
    process.env.STRIPE_SECRET_KEY = SECRET;
    await importShop();
    delete process.env.STRIPE_WEBHOOK_SECRET;
    app = await buildApp({ db: getDb(), engine, accountRoutes: { signInsPerMinute: 1_000_000 } });
    adminEmail = (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.ADMIN)).email;
    admin = await signIn(app, SHOP_HOST, adminEmail);
    storeManager = await signIn(
      app,
      SHOP_HOST,
      (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.STORE_MANAGER)).email,
    );
    viewer = await signIn(app, SHOP_HOST, (await addSiteUser(getDb(), SHOP_HOST, ContributorRole.VIEWER)).email);
  });
  beforeEach(importShop);
  afterAll(async () => {
    delete process.env.STRIPE_SECRET_KEY;
    await app?.close();
  });

  it('saves the store settings as a new version with its audit entry', async () => {
    const base = await version();
    const page = await get('/admin/settings', admin);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('value="0.00"');
    const saved = await form('store', storeForm({ minimumSubtotal: '25', payLaterEnabled: 'yes' }), admin);
    expect(saved.statusCode, saved.body).toBe(303);
    expect(decodeURIComponent(saved.headers.location as string)).toContain(
      `Changed the store settings: saved as version ${base + 1}.`,
    );
    const website = await stored();
    expect(website.store.minimumSubtotal).toBe(2500);
    expect(website.store.payLater).toMatchObject({ enabled: true, min: 100, max: 200000 });
    expect(website.store.checkout.coupons).toHaveLength(5);
    const audit = await listAudit(getDb(), SITE, { limit: 1 });
    expect(audit.records[0]).toMatchObject({ action: 'settings.edit', actor: adminEmail });
    expect(audit.records[0]!.summary).toBe(`Changed the store settings (version ${base + 1})`);
  });

  it('refuses bad input with each field’s reason, writing nothing', async () => {
    const base = await version();
    const money = await form(
      'store',
      storeForm({ minimumSubtotal: 'twelve', payLaterMin: '3000', payLaterMax: '2000' }),
      admin,
    );
    expect(money.statusCode).toBe(422);
    expect(money.body).toContain('Minimum subtotal: must be an amount');
    const payLater = await form('store', storeForm({ payLaterMin: '3000', payLaterMax: '2000' }), admin);
    expect(payLater.statusCode).toBe(422);
    expect(payLater.body).toContain('Pay later: prices above: min must be below max');
    const region = await form('tax', { op: 'rate', country: 'US', region: 'ZZ', rate: '5', name: 'Tax' }, admin);
    expect(region.statusCode).toBe(422);
    expect(region.body).toContain('ZZ is not a region code of US');
    const percent = await form('coupons', { op: 'coupon', code: 'BIG', type: 'percent', amount: '150' }, admin);
    expect(percent.statusCode).toBe(422);
    expect(percent.body).toContain('Amount: a percent coupon takes at most 100');
    // The value typed is shown again.
    expect(percent.body).toContain('value="BIG"');
    const shipping = await form('shipping', { op: 'option', id: 'Bad Id', name: 'X', rate: '1' }, admin);
    expect(shipping.statusCode).toBe(422);
    expect(shipping.body).toContain('Id: must be 1-64 lower-case letters');
    expect(await version()).toBe(base);
  });

  it("ships an option to some postal codes only: each code checked with the spec's address hints, and the checkout offers it there alone", async () => {
    const base = await version();
    const bad = await form(
      'shipping',
      { op: 'option', id: 'courier', name: 'Courier', rate: '9', countries: ['US'], postalCodes: '10001, 1000' },
      admin,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('1000: ZIP Codes need to be 5 digits.');
    expect(bad.body).toContain('value="10001, 1000"');
    const twoCountries = await form(
      'shipping',
      { op: 'option', id: 'courier', name: 'Courier', rate: '9', countries: ['US', 'CA'], postalCodes: '10001' },
      admin,
    );
    expect(twoCountries.body).toContain('choose one country above for postal codes');
    const gb = await form(
      'shipping',
      { op: 'option', id: 'courier', name: 'Courier', rate: '9', countries: ['GB'], postalCodes: 'SW1A 1AA' },
      admin,
    );
    expect(gb.body).toContain('SW1A 1AA: Enter only the 1-4 character outcode portion of postcodes.');
    expect(await version()).toBe(base);

    const saved = await form(
      'shipping',
      { op: 'option', id: 'courier', name: 'Courier', rate: '9', countries: ['US'], postalCodes: '10001,\n10002' },
      admin,
    );
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(303);
    expect((await stored()).store.checkout.shippingOptions.at(-1)).toEqual({
      id: 'courier',
      name: 'Courier',
      rate: 900,
      countries: ['US'],
      postalCodes: ['10001', '10002'],
    });
    // A site file naming a postal code the country's hint refuses is refused too.
    const file = structuredClone(checkoutSite) as SiteFileInput;
    file.website!.store!.checkout!.shippingOptions = [
      { id: 'x', name: 'X', rate: 1, countries: ['CA'], postalCodes: ['K1'] },
    ];
    const invalid = validateSite(file);
    expect(invalid.ok ? [] : invalid.problems).toContain(
      'website.store.checkout.shippingOptions[0].postalCodes[0]: An FSA code is invalid.',
    );

    const shopper = { host: SHOP_HOST, cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`, [CRUMB_HEADER]: TEST_CRUMB };
    const added = await app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: shopper,
      payload: { itemId: 'limited', sku: 'limited-1', quantity: 1, additionalFields: '' },
    });
    expect(added.statusCode, added.body).toBe(200);
    const cart = String(added.headers['set-cookie']).match(/CART=[^;]+/)![0];
    const offered = async (postalCode: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/commerce/checkout/quote',
          headers: { ...shopper, cookie: `${shopper.cookie}; ${cart}` },
          payload: { shippingAddress: { country: 'US', region: 'NY', postalCode } },
        })
      )
        .json<{ shippingOptions: { id: string }[] }>()
        .shippingOptions.map((o) => o.id);
    expect(await offered('10001')).toContain('courier');
    expect(await offered('10002-1234')).toContain('courier');
    expect(await offered('94105')).not.toContain('courier');
    expect(await offered('94105')).toContain('standard');
    await form('shipping', { op: 'remove:courier' }, admin);
  });

  it('adds, changes and removes a shipping option, and a tax rate', async () => {
    expect(
      (await form('shipping', { op: 'option', id: 'pickup', name: 'Pick up', rate: '0', countries: ['US'] }, admin))
        .statusCode,
    ).toBe(303);
    expect((await stored()).store.checkout.shippingOptions.at(-1)).toEqual({
      id: 'pickup',
      name: 'Pick up',
      rate: 0,
      countries: ['US'],
    });
    const edit = await get('/admin/settings?shipping=pickup', admin);
    expect(edit.body).toContain('Change Pick up');
    await form(
      'shipping',
      { op: 'option', id: 'pickup', name: 'Pick up in store', rate: '1.50', freeOver: '20' },
      admin,
    );
    expect((await stored()).store.checkout.shippingOptions.at(-1)).toEqual({
      id: 'pickup',
      name: 'Pick up in store',
      rate: 150,
      freeOver: 2000,
      countries: [],
    });
    await form('shipping', { op: 'remove:pickup' }, admin);
    expect((await stored()).store.checkout.shippingOptions.map((o) => o.id)).toEqual([
      'standard',
      'express',
      'canada-post',
    ]);
    await form('shipping', { op: 'countries', shipsTo: ['US', 'CA'] }, admin);
    expect((await stored()).store.checkout.shipsTo).toEqual(['US', 'CA']);
    const none = await form('shipping', { op: 'countries' }, admin);
    expect(none.body).toContain('Ships to: choose at least one country');

    await form('tax', { op: 'rate', country: 'CA', region: 'on', rate: '13', name: 'HST' }, admin);
    expect((await stored()).store.checkout.tax.rates).toContainEqual({
      country: 'CA',
      region: 'ON',
      rate: 13,
      name: 'HST',
    });
    await form('tax', { op: 'remove:CA/ON' }, admin);
    expect((await stored()).store.checkout.tax.rates).toHaveLength(1);
  });

  it('lets a store manager add and remove coupons, and change nothing else', async () => {
    const added = await form(
      'coupons',
      { op: 'coupon', code: 'SUMMER', type: 'fixed', amount: '7.50', usageLimit: '100', endsAt: '2030-09-01' },
      storeManager,
    );
    expect(added.statusCode, added.body).toBe(303);
    expect((await stored()).store.checkout.coupons.at(-1)).toEqual({
      code: 'SUMMER',
      type: 'fixed',
      amount: 750,
      minimumSubtotal: 0,
      oncePerEmail: false,
      endsAt: '2030-09-01T00:00:00Z',
      usageLimit: 100,
    });
    expect((await form('coupons', { op: 'remove:summer' }, storeManager)).statusCode).toBe(303);
    expect((await stored()).store.checkout.coupons.map((c) => c.code)).not.toContain('SUMMER');
    const base = await version();
    expect((await form('store', storeForm({ minimumSubtotal: '1' }), storeManager)).statusCode).toBe(403);
    const page = await get('/admin/settings', storeManager);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('aria-label="Add a coupon"');
    expect(page.body).not.toContain('aria-label="Store settings"><input');
    expect(page.body).not.toContain('action="/admin/settings/store"');
    expect(await version()).toBe(base);
  });

  it('shows a viewer the settings without forms, and refuses their change; nobody signed in goes to sign in', async () => {
    const page = await get('/admin/settings', viewer);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('WELCOME10');
    expect(page.body.slice(page.body.indexOf('<main'))).not.toContain('<form');
    expect((await form('coupons', { op: 'remove:WELCOME10' }, viewer)).statusCode).toBe(403);
    expect((await json('PUT', '/api/admin/settings', { baseVersion: 1, currency: 'EUR' }, viewer)).statusCode).toBe(
      403,
    );
    const nobody = await get('/admin/settings');
    expect(nobody.statusCode).toBe(303);
    expect(nobody.headers.location).toBe('/account/sign-in?next=%2Fadmin%2Fsettings');
    expect((await get('/api/admin/settings')).statusCode).toBe(401);
    const anonymous = await json('PUT', '/api/admin/settings', { baseVersion: 1 }, `${CRUMB_COOKIE}=${TEST_CRUMB}`);
    expect(anonymous.statusCode).toBe(401);
    expect((await stored()).store.checkout.coupons.map((c) => c.code)).toContain('WELCOME10');
  });

  it('says which secrets are set without showing them, and sends a test e-mail through the outbox', async () => {
    const page = await get('/admin/settings', admin);
    expect(page.body).toMatch(/<dt>STRIPE_SECRET_KEY<\/dt><dd>set<\/dd>/);
    expect(page.body).toMatch(/<dt>STRIPE_WEBHOOK_SECRET<\/dt><dd>not set<\/dd>/);
    expect(page.body).not.toContain(SECRET);
    const api = await get('/api/admin/settings', admin);
    expect(api.json()).toMatchObject({ environment: { STRIPE_SECRET_KEY: true, STRIPE_WEBHOOK_SECRET: false } });
    expect(api.body).not.toContain(SECRET);

    const sent = await form('email', { op: 'test' }, admin);
    expect(sent.statusCode).toBe(303);
    expect(decodeURIComponent(sent.headers.location as string)).toContain(
      `A test e-mail to ${adminEmail} is in the outbox.`,
    );
    const queued = await getDb()
      .selectFrom('outbox')
      .select(['to_address as to', 'subject', 'kind'])
      .where('site_id', '=', SITE)
      .where('kind', '=', 'test')
      .execute();
    expect(queued).toContainEqual({ to: adminEmail, subject: 'Test e-mail from Shop', kind: 'test' });
    const byApi = await json('POST', '/api/admin/settings/test-email', {}, admin);
    expect(byApi.statusCode).toBe(200);
    expect(byApi.json()).toMatchObject({ to: adminEmail });
  });

  it('keeps both saves when two editors change different settings from the same version, at once', async () => {
    const base = await version();
    const [captcha, coupon] = await Promise.all([
      json('PUT', '/api/admin/settings', { baseVersion: base, captcha: { provider: 'none' } }, admin),
      json(
        'PUT',
        '/api/admin/coupons/TWIN',
        { baseVersion: base, coupon: { code: 'TWIN', type: 'percent', amount: 5 } },
        storeManager,
      ),
    ]);
    expect([captcha.statusCode, coupon.statusCode]).toEqual([200, 200]);
    const website = await stored();
    expect(website.captcha.provider).toBe('none');
    expect(website.store.checkout.coupons.map((c) => c.code)).toContain('TWIN');
    expect(await version()).toBe(base + 2);
  });

  it('checks coupons, shipping options and tax rates per item: other items saved from the same version are kept, the same one is refused', async () => {
    const base = await version();
    const formAt = (section: string, fields: Record<string, string | string[]>, cookie = admin) => {
      const params = new URLSearchParams({ baseVersion: String(base), [CRUMB_FIELD]: TEST_CRUMB });
      for (const [name, value] of Object.entries(fields))
        for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
      return app.inject({
        method: 'POST',
        url: `/admin/settings/${section}`,
        headers: { host: SHOP_HOST, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: params.toString(),
      });
    };
    // Each form was made from version `base`; each save comes after the others.
    const saves = [
      await formAt('coupons', { op: 'coupon', code: 'AUTUMN', type: 'percent', amount: '15' }, storeManager),
      await formAt('shipping', { op: 'option', id: 'courier', name: 'Courier', rate: '9', countries: ['US'] }),
      await formAt('tax', { op: 'rate', country: 'CA', region: 'ON', rate: '13', name: 'HST' }),
      await formAt('coupons', { op: 'coupon', code: 'WINTER', type: 'percent', amount: '20' }, storeManager),
      await formAt('shipping', { op: 'remove:express' }),
      await formAt('shipping', { op: 'countries', shipsTo: ['US', 'CA', 'GB', 'IE'] }),
      await formAt('tax', { op: 'options', pricesIncludeTax: 'yes' }),
      await formAt('store', storeForm({ lowStockThreshold: '3' })),
    ];
    expect(saves.map((r) => r.statusCode)).toEqual([303, 303, 303, 303, 303, 303, 303, 303]);
    expect(await version()).toBe(base + 8);
    const checkout = (await stored()).store.checkout;
    expect(checkout.coupons.map((c) => c.code)).toEqual(expect.arrayContaining(['AUTUMN', 'WINTER']));
    expect(checkout.shippingOptions.map((o) => o.id)).toEqual(['standard', 'canada-post', 'courier']);
    expect(checkout.tax.rates).toContainEqual({ country: 'CA', region: 'ON', rate: 13, name: 'HST' });
    expect(checkout.shipsTo).toEqual(['US', 'CA', 'GB', 'IE']);
    expect(checkout.tax.pricesIncludeTax).toBe(true);
    expect((await stored()).store.lowStockThreshold).toBe(3);

    // The same item, changed since the form's version, is refused with what changed: nothing written.
    const sameCoupon = await formAt('coupons', { op: 'coupon', code: 'autumn', type: 'percent', amount: '50' }, admin);
    expect(sameCoupon.statusCode).toBe(409);
    expect(sameCoupon.body).toContain('Coupon AUTUMN added');
    const sameOption = await formAt('shipping', { op: 'option', id: 'express', name: 'Express', rate: '20' });
    expect(sameOption.statusCode).toBe(409);
    expect(sameOption.body).toContain('Shipping option express removed');
    const sameRate = await formAt('tax', { op: 'remove:CA/ON' });
    expect(sameRate.statusCode).toBe(409);
    expect(sameRate.body).toContain('Tax rate CA/ON added');
    const sameCountries = await formAt('shipping', { op: 'countries', shipsTo: ['US'] });
    expect(sameCountries.statusCode).toBe(409);
    expect(sameCountries.body).toContain('Website settings: store.checkout.shipsTo changed');
    expect(await version()).toBe(base + 8);

    // Through the JSON twin too: a coupon saved from an old version goes through unless that coupon changed.
    const other = await json(
      'PUT',
      '/api/admin/coupons/SPRING',
      { baseVersion: base, coupon: { code: 'SPRING', type: 'percent', amount: 5 } },
      storeManager,
    );
    expect(other.statusCode, other.body).toBe(200);
    const same = await json(
      'PUT',
      '/api/admin/coupons/winter',
      { baseVersion: base, coupon: { code: 'winter', type: 'percent', amount: 5 } },
      storeManager,
    );
    expect(same.statusCode).toBe(409);
    expect(same.json<{ message: string }>().message).toContain('Coupon WINTER added');
    // The audit entry names the item before and after, not the whole store.
    const [entry] = (await listAudit(getDb(), SITE, { limit: 1 })).records;
    expect(entry).toMatchObject({
      action: 'coupons.edit',
      before: { 'coupons:SPRING': null },
      after: { 'coupons:SPRING': { code: 'SPRING', type: 'percent', amount: 5 } },
    });
  });

  it('saves through the JSON twins, refusing bad input by field (400) and a stale save (409)', async () => {
    const { version: base, settings } = (await get('/api/admin/settings', admin)).json<{
      version: number;
      settings: { store: { minimumSubtotal: number } };
    }>();
    expect(settings.store.minimumSubtotal).toBe(0);
    const saved = await json(
      'PUT',
      '/api/admin/settings',
      { baseVersion: base, currency: 'EUR', promoPopup: null },
      admin,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ version: base + 1, settings: { currency: 'EUR', promoPopup: null } });
    // Only what is given is replaced: the store's coupons and shipping stay.
    expect((await stored()).store.checkout.coupons).toHaveLength(5);
    const bad = await json('PUT', '/api/admin/settings', { baseVersion: base + 1, currency: 'XYZ' }, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid-input', field: 'currency' });
    const badCoupon = await json(
      'PUT',
      '/api/admin/coupons/HALF',
      { baseVersion: base + 1, coupon: { code: 'HALF', type: 'percent', amount: 500 } },
      storeManager,
    );
    expect(badCoupon.statusCode).toBe(400);
    expect(badCoupon.json()).toMatchObject({ field: 'coupon.amount' });
    const coupon = await json(
      'PUT',
      '/api/admin/coupons/HALF',
      { baseVersion: base + 1, coupon: { code: 'HALF', type: 'percent', amount: 50, usageLimit: 10 } },
      storeManager,
    );
    expect(coupon.statusCode, coupon.body).toBe(200);
    expect(coupon.json()).toMatchObject({ version: base + 2, coupon: { code: 'HALF', usageLimit: 10 } });
    // Made from version base: the store settings changed since (the coupon), by the store manager.
    const stale = await json('PUT', '/api/admin/settings', { baseVersion: base, store: {} }, admin);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'site-edit-stale' });
    expect(stale.json<{ message: string }>().message).toContain('Website settings: store changed');
    const removed = await json('DELETE', '/api/admin/coupons/half', { baseVersion: base + 2 }, storeManager);
    expect(removed.statusCode, removed.body).toBe(200);
    const gone = await json('DELETE', '/api/admin/coupons/half', { baseVersion: base + 3 }, storeManager);
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ code: 'site-edit-refused', message: 'There is no coupon half (any more).' });
    expect((await json('PUT', '/api/admin/settings', { baseVersion: base + 3 }, admin)).statusCode).toBe(400);
    expect((await stored()).currency).toBe('EUR');
  });
});
