/**
 * Product waitlist blocks and the promo popup on SQLite and PostgreSQL: a waitlist sign-up is stored once per e-mail
 * and product (also when two race), reaches the shop through the outbox, is listed with its product, answers §7's
 * PRODUCT_WAITLIST_SUBMISSION; it works without JavaScript; the popup's form answers PROMO_POPUP_SUBMISSION, and its
 * markup and settings are validated (where it is mounted, what it carries, bad settings refused by name).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it, onTestFinished } from 'vitest';
import { CAPTCHA_ACTIONS } from '../../src/core/forms/submission';
import { buildApp } from '../../src/server/app';
import { listSubmissions, submitForm, waitlistSignUpId } from '../../src/modules/forms/submissions';
import { listSubscribers } from '../../src/modules/forms/newsletter';
import { getSite } from '../../src/modules/site/sites';
import { validateSite } from '../../src/modules/site/validate';
import type { SiteFileInput } from '../../src/modules/site/schema';
import { sendCrumbs, TEST_CRUMB } from '../support/crumb';
import { forEachEngine } from '../support/engines';
import { formSite, seedSite, SHOP_HOST } from '../support/formSite';
import { CRUMB_COOKIE } from '../../src/core/crumb';

const KEY_API = '/api/form/FormSubmissionKey';
const SAVE_API = '/api/form/SaveFormSubmission';

export const waitlistSite: SiteFileInput = {
  ...formSite,
  website: {
    ...formSite.website,
    promoPopup: { formId: 'newsletter', title: 'Join the letter', text: 'Twice a month.', showAfterSeconds: 1 },
  },
  forms: [
    ...(formSite.forms ?? []),
    {
      id: 'waitlist',
      name: 'Waitlist',
      kind: 'waitlist',
      submitLabel: 'Notify me',
      submissionMessage: 'You are on the list.',
      fields: [
        { id: 'email', kind: 'email', title: 'Email', required: true },
        { id: 'note', kind: 'text', title: 'Note' },
      ],
    },
  ],
  pages: [
    ...(formSite.pages ?? []),
    {
      id: 'soon',
      path: '/soon',
      title: 'Soon',
      blocks: [
        { type: 'heading', text: 'Coming soon', level: 1 },
        { type: 'productWaitlist', formId: 'waitlist', productId: 'tee' },
      ],
    },
  ],
};

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    await seedSite(getDb(), waitlistSite);
    app = sendCrumbs(
      await buildApp({
        db: getDb(),
        engine,
        formRoutes: { submissionsPerMinute: 1_000_000, submissionsPerFormPerMinute: 1_000_000 },
      }),
    );
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    for (const table of ['form_submissions', 'form_keys', 'mailing_list', 'outbox'] as const)
      await getDb().deleteFrom(table).execute();
  });

  const post = (url: string, payload?: unknown) =>
    app.inject({
      method: 'POST',
      url,
      headers: { host: SHOP_HOST, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const key = async () => ((await post(KEY_API)).json() as { key: string }).key;
  const save = async (formId: string, form: unknown, extra: Record<string, unknown> = {}) =>
    post(SAVE_API, { key: await key(), formId, form: JSON.stringify(form), pagePath: '/soon', ...extra });
  const outbox = () => getDb().selectFrom('outbox').select(['to_address', 'subject', 'text_body']).execute();

  it('renders the waitlist block: its form, the product it waits for, the waitlist CAPTCHA action', async () => {
    const page = await app.inject({ method: 'GET', url: '/soon', headers: { host: SHOP_HOST } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Coming soon: Tee');
    expect(page.body).toContain('data-form-id="waitlist"');
    expect(page.body).toContain('name="productId" value="tee"');
    expect(page.body).toContain('Notify me');
  });

  it('stores a sign-up once per e-mail and product, e-mails the shop once, and lists it with its product', async () => {
    const answers = await Promise.all([
      save('waitlist', { email: 'Fan@Example.com', note: 'two please' }, { productId: 'tee' }),
      save('waitlist', { email: 'fan@example.com ' }, { productId: 'tee' }),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect((await save('waitlist', { email: 'fan@example.com' }, { productId: 'tee' })).statusCode).toBe(200);
    // Another product is another sign-up; an unknown product counts as none.
    expect((await save('waitlist', { email: 'fan@example.com' }, { productId: 'kit' })).statusCode).toBe(200);
    expect((await save('waitlist', { email: 'fan@example.com' }, { productId: 'ghost' })).statusCode).toBe(200);

    const stored = await listSubmissions(getDb(), { formId: 'waitlist' });
    expect(stored).toHaveLength(3);
    const forTee = stored.find((s) => s.id === waitlistSignUpId('shop', 'waitlist', 'tee', 'fan@example.com'));
    expect(forTee?.answers[0]).toEqual({ title: 'Product', lines: ['Tee (tee)'] });
    expect(forTee?.answers).toContainEqual({
      title: 'Email',
      lines: expect.arrayContaining([expect.stringMatching(/fan@example\.com/i)]) as unknown as string[],
    });
    expect(stored.filter((s) => s.answers[0]?.title !== 'Product')).toHaveLength(1);

    const mails = await outbox();
    expect(mails).toHaveLength(3);
    expect(mails.every((m) => m.to_address === 'orders@shop.test')).toBe(true);
    expect(mails.some((m) => m.subject.includes('Waitlist') && m.text_body.includes('Tee (tee)'))).toBe(true);
    // Not a newsletter: nobody joined the mailing list.
    expect(await listSubscribers(getDb())).toHaveLength(0);
  });

  it('refuses what the §5 rules refuse: no e-mail, a bad e-mail', async () => {
    const empty = await save('waitlist', {}, { productId: 'tee' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      error: 'One or more fields is invalid, please check your entries.',
      errors: { email: 'Required' },
    });
    expect((await save('waitlist', { email: 'nope' }, { productId: 'tee' })).json().errors.email).toMatch(
      /^Email is not valid/,
    );
    expect(await listSubmissions(getDb())).toHaveLength(0);
  });

  it('signs up without JavaScript: the page comes back with the success text, once per e-mail', async () => {
    const noJs = () =>
      app.inject({
        method: 'POST',
        url: '/soon',
        headers: {
          host: SHOP_HOST,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `${CRUMB_COOKIE}=${TEST_CRUMB}`,
        },
        payload: new URLSearchParams({
          formId: 'waitlist',
          productId: 'tee',
          email: 'nojs@example.com',
          crumb: TEST_CRUMB,
        }).toString(),
      });
    for (let i = 0; i < 2; i++) {
      const page = await noJs();
      expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
      expect(page.body).toContain('You are on the list.');
    }
    const stored = await listSubmissions(getDb(), { formId: 'waitlist' });
    expect(stored.map((s) => s.id)).toEqual([waitlistSignUpId('shop', 'waitlist', 'tee', 'nojs@example.com')]);
    expect(stored[0]!.pagePath).toBe('/soon');
  });

  it('checks the CAPTCHA with the §7 action of where the form is: waitlist, popup, newsletter block', async () => {
    const db = getDb();
    const site = (await getSite(db, 'shop'))!;
    const withCaptcha = {
      ...site,
      settings: {
        ...site.settings,
        captcha: { provider: 'recaptcha-enterprise' as const, siteKey: 'k', projectId: 'project-1' },
      },
    };
    const seen: string[] = [];
    const deps = {
      verifyCaptcha: async (_db: unknown, _site: unknown, _token: string, action: string) => {
        seen.push(action);
        return 'ok' as const;
      },
    };
    // The forms ask for a CAPTCHA only when their `captcha` is on: the test turns it on through the stored form rows.
    const original = new Map<string, string>();
    for (const id of ['waitlist', 'newsletter']) {
      const row = await db
        .selectFrom('forms')
        .select('data')
        .where('site_id', '=', 'shop')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      original.set(id, row.data);
      await db
        .updateTable('forms')
        .set({ data: JSON.stringify({ ...(JSON.parse(row.data) as object), captcha: true }) })
        .where('site_id', '=', 'shop')
        .where('id', '=', id)
        .execute();
    }
    onTestFinished(async () => {
      for (const [id, data] of original)
        await db.updateTable('forms').set({ data }).where('site_id', '=', 'shop').where('id', '=', id).execute();
    });
    const base = { key: null, captchaToken: 'token', pagePath: '/', baseUrl: 'https://shop.test' };
    expect(
      (
        await submitForm(
          db,
          withCaptcha,
          { ...base, formId: 'waitlist', values: { email: 'a@example.com' }, productId: 'tee' },
          deps,
        )
      ).ok,
    ).toBe(true);
    expect(
      (
        await submitForm(
          db,
          withCaptcha,
          { ...base, formId: 'newsletter', values: { email: 'b@example.com' }, placement: 'promoPopup' },
          deps,
        )
      ).ok,
    ).toBe(true);
    expect(
      (await submitForm(db, withCaptcha, { ...base, formId: 'newsletter', values: { email: 'c@example.com' } }, deps))
        .ok,
    ).toBe(true);
    // A form that is not the site's popup form cannot claim the popup's action.
    expect(
      (
        await submitForm(
          db,
          withCaptcha,
          { ...base, formId: 'waitlist', values: { email: 'd@example.com' }, placement: 'promoPopup' },
          deps,
        )
      ).ok,
    ).toBe(true);
    expect(seen).toEqual([
      CAPTCHA_ACTIONS.productWaitlist,
      CAPTCHA_ACTIONS.promoPopup,
      CAPTCHA_ACTIONS.newsletterBlock,
      CAPTCHA_ACTIONS.productWaitlist,
    ]);
  });

  it('the popup form signs up through the form routes (newsletter: double opt-in)', async () => {
    const answer = await save('newsletter', { email: 'pop@example.com' }, { placement: 'promoPopup', pagePath: '/' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await listSubscribers(getDb())).toEqual([
      expect.objectContaining({ email: 'pop@example.com', status: 'pending', sourceFormId: 'newsletter' }),
    ]);
  });

  it('mounts the popup island on pages but the cart and checkout, with its settings and form, rendering nothing visible', async () => {
    const home = await app.inject({ method: 'GET', url: '/contact', headers: { host: SHOP_HOST } });
    const root = /<div class="island" data-island="PromoPopup"[^>]*data-props="([^"]*)"[^>]*><\/div>/.exec(home.body);
    expect(root, 'an empty PromoPopup root').not.toBeNull();
    const props = JSON.parse(root![1]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as {
      popup: Record<string, unknown>;
      form: { id: string; kind: string };
      captcha: unknown;
    };
    expect(props.popup).toEqual({
      formId: 'newsletter',
      title: 'Join the letter',
      text: 'Twice a month.',
      showAfterSeconds: 1,
      showAgainAfterDays: 30,
    });
    expect(props.form).toMatchObject({ id: 'newsletter', kind: 'newsletter' });
    expect(props.captcha).toBeNull();
    for (const path of ['/cart', '/checkout']) {
      const page = await app.inject({ method: 'GET', url: path, headers: { host: SHOP_HOST } });
      expect(page.body, path).not.toContain('data-island="PromoPopup"');
    }
  });
});

it('validates the popup and waitlist settings by name', () => {
  const bad = (edit: (site: SiteFileInput & { website: Record<string, unknown> }) => void) => {
    const site = structuredClone(waitlistSite) as SiteFileInput & { website: Record<string, unknown> };
    edit(site);
    const result = validateSite(site);
    return result.ok ? [] : result.problems;
  };
  expect(bad((s) => (s.website.promoPopup = { formId: 'ghost', title: 'x' }))).toContain(
    "website.promoPopup.formId: form 'ghost' does not exist",
  );
  expect(bad((s) => (s.website.promoPopup = { formId: 'newsletter', title: 'x', showAfterSeconds: -1 }))).toEqual([
    expect.stringMatching(/^website\.promoPopup\.showAfterSeconds: must be at least 0/),
  ]);
  expect(bad((s) => (s.website.promoPopup = { formId: 'newsletter', title: '' }))).toEqual([
    expect.stringMatching(/^website\.promoPopup\.title: /),
  ]);
  expect(
    bad((s) => {
      s.pages = [
        {
          id: 'soon',
          path: '/soon',
          title: 'Soon',
          blocks: [{ type: 'productWaitlist', formId: 'contact', productId: 'ghost' }],
        },
      ];
    }),
  ).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/formId: form 'contact' is not a waitlist form/),
      expect.stringMatching(/productId: product 'ghost' does not exist/),
    ]),
  );
});
