/**
 * The settings at /admin/settings (issue 26), through the admin module's helpers: staff with 'settings.read' look;
 * 'settings.edit' (admins, website managers) change the store (currency, minimum subtotal, pay later), shipping,
 * tax, payments, CAPTCHA, the promo popup and analytics, and send themselves a test e-mail; coupons also need only
 * 'coupons.edit' (store managers too).
 *
 * - GET /admin/settings[?done&section&shipping&coupon&tax] → every section (an edit form filled when its query names
 *   an option, coupon or rate)
 * - POST /admin/settings/:section (form: crumb, baseVersion, op, the fields) → 303 back to the section with a notice,
 *   or the page again with the values typed and what is wrong with each (422), or what changed meanwhile (409)
 * - GET/PUT /api/admin/settings, PUT/DELETE /api/admin/coupons/:code, POST /api/admin/settings/test-email → JSON
 *
 * A save is a new site version (editSite through settingsEdit.ts: saves of the same setting by someone else since the
 * form's version are refused with who and what) with its audit entry in the same transaction. Secrets stay in the
 * environment: the page says which are set, never their values. Checkout reads these settings as it always has
 * (coupon usage limits are counted there, under concurrency); nothing here touches it.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ADDRESS_COUNTRIES, regionName } from '../../core/address/countries';
import { postalCodeHint } from '../../core/address/hints';
import { taxRatePlace } from '../../core/checkout/tax';
import { CURRENCY_CODES, fractionDigits, isCurrencyCode, type CurrencyCode } from '../../core/currency';
import { parseMoney } from '../../core/money';
import { err, ok, type Result } from '../../core/result';
import type { StaffPermission } from '../../core/staffAccess';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { parseInput } from '../../platform/http/validation';
import { inTransaction } from '../../platform/db/transaction';
import { enqueueEmail } from '../../platform/mail/outbox';
import { AdminNotice, AdminTableBox, AdminTitle } from '../../ui/admin/AdminFrame';
import {
  CheckField,
  CheckGroup,
  Facts,
  RowButton,
  SectionForm,
  SelectField,
  SETTINGS_PATH,
  SETTINGS_SECTIONS,
  SettingsContents,
  SettingsSection,
  TextArea,
  TextField,
  type SettingsSectionId,
} from '../../ui/admin/Settings';
import { recordAudit, requireStaff, type AdminPages, type AdminView, type AdminVisit, type Staff } from '../admin';
import { editApiError, editNotice } from './designAdmin';
import { siteOf } from './requestSite';
import type { Coupon, ShippingOption, TaxRate, Website } from './schema';
import {
  couponBody,
  couponDeleteBody,
  couponParams,
  deleteCouponRoute,
  getSettingsRoute,
  putCouponRoute,
  putSettingsRoute,
  settingsBody,
  settingsFormRoute,
  settingsPage,
  settingsPageQuery,
  settingsSectionParams,
  testEmailRoute,
} from './settingsAdmin.schema';
import {
  readSettingsEditor,
  saveSettings,
  settingsKeys,
  settingsListItem,
  type SettingsEditorState,
} from './settingsEdit';
import type { SettingsSubject } from './edit';
import { testEmail } from './testEmail';

type Form = Record<string, string | string[] | undefined>;
type Problem = { field: string; message: string };

const looking = { section: SETTINGS_PATH, permission: 'settings.read' } as const;

/** The environment's settings the page names: set or not (their values are never read into a page). */
const ENVIRONMENT: Readonly<Record<string, readonly string[]>> = {
  payments: ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'],
  email: ['SMTP_URL', 'MAIL_FROM', 'PUBLIC_URL'],
  captcha: ['RECAPTCHA_ENTERPRISE_API_KEY', 'TURNSTILE_SECRET_KEY'],
  analytics: ['ANALYTICS_RETENTION_DAYS'],
};
const isSet = (env: NodeJS.ProcessEnv, name: string) => (env[name]?.trim() ?? '') !== '';

/** What each field is called on the page (a schema problem names the field by its key). */
const LABELS: Readonly<Record<string, string>> = {
  currency: 'Currency',
  minimumSubtotal: 'Minimum subtotal',
  payLaterMin: 'Pay later: prices above',
  payLaterMax: 'Pay later: prices up to',
  min: 'Pay later: prices above',
  max: 'Pay later: prices up to',
  shopEmail: 'Copy of each new order to',
  lowStockThreshold: 'Low stock at',
  shipsTo: 'Ships to',
  id: 'Id',
  name: 'Name',
  rate: 'Rate',
  freeOver: 'Free over',
  countries: 'Countries',
  country: 'Country',
  region: 'Region',
  code: 'Code',
  type: 'Type',
  amount: 'Amount',
  startsAt: 'Starts',
  endsAt: 'Ends',
  usageLimit: 'Uses in all',
  provider: 'Provider',
  manualInstructions: 'Instructions',
  siteKey: 'Site key',
  projectId: 'Google Cloud project',
  scoreThreshold: 'Lowest score',
  formId: 'Form',
  title: 'Heading',
  text: 'Text',
  showAfterSeconds: 'Opens after (seconds)',
  showAgainAfterDays: 'Shown again after (days)',
  cookieConsent: 'Cookie consent',
  rates: 'Tax rates',
  coupons: 'Coupons',
  shippingOptions: 'Shipping options',
};

/** 'website.store.checkout.coupons[5].amount: a percent…' → { field: 'amount', message: 'a percent…' }. */
function problemOf(line: string): Problem {
  const at = line.indexOf(': ');
  const path = at > 0 ? line.slice(0, at) : '';
  const field = /([A-Za-z]+)(?:\[\d+\])*$/.exec(path)?.[1] ?? '';
  return { field, message: at > 0 ? line.slice(at + 2) : line };
}

const one = (form: Form, name: string): string => {
  const v = form[name];
  return (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).slice(0, 2100);
};
const many = (form: Form, name: string): string[] => {
  const v = form[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/** Minor units as the owner types them ('12.50' in USD, '1250' in JPY). */
const decimal = (minor: number | undefined, currency: CurrencyCode): string =>
  minor === undefined ? '' : (minor / 10 ** fractionDigits(currency)).toFixed(fractionDigits(currency));

/** Reads a section's fields, collecting what is wrong with each. */
class FieldReader {
  readonly problems: Problem[] = [];
  constructor(
    private readonly form: Form,
    private readonly currency: CurrencyCode,
  ) {}
  text(name: string): string {
    return one(this.form, name).trim();
  }
  checked(name: string): boolean {
    return one(this.form, name) === 'yes';
  }
  refuse(field: string, message: string): void {
    this.problems.push({ field, message });
  }
  money(name: string, optional: true): number | undefined;
  money(name: string, optional?: false): number;
  money(name: string, optional = false): number | undefined {
    const raw = this.text(name).replace(/,/g, '');
    if (raw === '') {
      if (optional) return undefined;
      this.refuse(name, 'must be an amount (like 12.50)');
      return 0;
    }
    const money = parseMoney({ decimalValue: raw, currencyCode: this.currency });
    if (!money.ok) {
      const { code } = money.error;
      this.refuse(
        name,
        code === 'negative'
          ? 'must not be negative'
          : code === 'too-many-decimals'
            ? `must have at most ${fractionDigits(this.currency)} decimals in ${this.currency}`
            : code === 'too-large'
              ? 'is too large'
              : 'must be an amount (like 12.50)',
      );
      return 0;
    }
    return money.value.minorUnits;
  }
  whole(name: string, optional: true): number | undefined;
  whole(name: string, optional?: false): number;
  whole(name: string, optional = false): number | undefined {
    const raw = this.text(name);
    if (raw === '' && optional) return undefined;
    if (!/^\d{1,10}$/.test(raw)) {
      this.refuse(name, 'must be a whole number');
      return 0;
    }
    return Number(raw);
  }
  number(name: string, optional: true): number | undefined;
  number(name: string, optional = false): number | undefined {
    const raw = this.text(name);
    if (raw === '' && optional) return undefined;
    const n = Number(raw);
    if (raw === '' || !Number.isFinite(n)) {
      this.refuse(name, 'must be a number');
      return 0;
    }
    return n;
  }
  date(name: string, time: string): string | undefined {
    const raw = this.text(name);
    if (raw === '') return undefined;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(`${raw}T${time}Z`))) {
      this.refuse(name, 'must be a date (YYYY-MM-DD)');
      return undefined;
    }
    return `${raw}T${time}Z`;
  }
}

/**
 * A section's save: what of the settings it changes (a part of them by path, or a coupon, shipping option or tax rate
 * by itself: saves of other parts and items from the same version are kept), the permission, the change and its words.
 */
interface SectionChange {
  subjects: SettingsSubject[];
  permission: StaffPermission;
  summary: string;
  change: (website: Website) => Result<Website, string>;
}

const withCheckout = (
  website: Website,
  edit: (checkout: Website['store']['checkout']) => Website['store']['checkout'],
): Website => ({ ...website, store: { ...website.store, checkout: edit(website.store.checkout) } });

const sameCode = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();
const taxKey = taxRatePlace;
const coupon = (code: string) => settingsListItem('coupons', code.toUpperCase());
const shippingOption = (id: string) => settingsListItem('shippingOptions', id);
const taxRateOf = (place: string) => settingsListItem('taxRates', place);

/** Reads a section's form into its change, or says what is wrong. */
function readSection(
  section: SettingsSectionId,
  form: Form,
  state: SettingsEditorState,
): { change?: SectionChange; problems: Problem[] } {
  const op = one(form, 'op') || 'save';
  const currentCurrency = state.website.currency as CurrencyCode;
  const chosenCurrency = one(form, 'currency');
  const currency = section === 'store' && isCurrencyCode(chosenCurrency) ? chosenCurrency : currentCurrency;
  const read = new FieldReader(form, currency);
  const done = (change: SectionChange) =>
    read.problems.length ? { problems: read.problems } : { change, problems: [] };
  const settings = (summary: string, subjects: SettingsSubject[], change: SectionChange['change']) =>
    done({ subjects, permission: 'settings.edit', summary, change });

  switch (section) {
    case 'store': {
      if (!isCurrencyCode(chosenCurrency))
        read.refuse('currency', `${chosenCurrency.slice(0, 20)} is not one of the expected options`);
      const minimumSubtotal = read.money('minimumSubtotal');
      const payLater = {
        enabled: read.checked('payLaterEnabled'),
        min: read.money('payLaterMin'),
        max: read.money('payLaterMax'),
        accountCountry: read.text('payLaterCountry') as Website['store']['payLater']['accountCountry'],
      };
      const shopEmail = read.text('shopEmail');
      const lowStockThreshold = read.whole('lowStockThreshold');
      const storeSubjects = settingsKeys(
        'currency',
        'store.minimumSubtotal',
        'store.payLater',
        'store.lowStockThreshold',
        'store.checkout.shopEmail',
      );
      return settings('Changed the store settings', [storeSubjects], (website) => {
        const next = withCheckout(
          { ...website, currency, store: { ...website.store, minimumSubtotal, payLater, lowStockThreshold } },
          (c) => {
            const copy = { ...c };
            if (shopEmail) copy.shopEmail = shopEmail;
            else delete copy.shopEmail;
            return copy;
          },
        );
        return ok(next);
      });
    }
    case 'shipping': {
      if (op === 'countries') {
        const shipsTo = many(form, 'shipsTo').filter((c) => (ADDRESS_COUNTRIES as readonly string[]).includes(c));
        if (shipsTo.length === 0) read.refuse('shipsTo', 'choose at least one country');
        return settings('Changed the countries shipped to', [settingsKeys('store.checkout.shipsTo')], (w) =>
          ok(withCheckout(w, (c) => ({ ...c, shipsTo: shipsTo as typeof c.shipsTo }))),
        );
      }
      if (op.startsWith('remove:')) {
        const id = op.slice('remove:'.length);
        return settings(`Removed the shipping option ${id}`, [shippingOption(id)], (w) =>
          w.store.checkout.shippingOptions.some((o) => o.id === id)
            ? ok(withCheckout(w, (c) => ({ ...c, shippingOptions: c.shippingOptions.filter((o) => o.id !== id) })))
            : err(`There is no shipping option ${id} (any more): reload the page.`),
        );
      }
      const option: ShippingOption = {
        id: read.text('id').toLowerCase(),
        name: read.text('name'),
        rate: read.money('rate'),
        countries: many(form, 'countries').filter((c) =>
          (ADDRESS_COUNTRIES as readonly string[]).includes(c),
        ) as ShippingOption['countries'],
      };
      const freeOver = read.money('freeOver', true);
      if (freeOver !== undefined) option.freeOver = freeOver;
      // Postal codes or their leading part, separated by commas or lines; each checked with the spec's address hints.
      const postalCodes = [
        ...new Set(
          read
            .text('postalCodes')
            .split(/[,\n]/)
            .map((c) => c.trim().toUpperCase()),
        ),
      ].filter((c) => c !== '');
      if (postalCodes.length > 0) {
        const [country, more] = option.countries;
        if (country === undefined || more !== undefined)
          read.refuse('postalCodes', 'choose one country above for postal codes');
        else
          for (const code of postalCodes) {
            const hint = postalCodeHint(country, code);
            if (hint) {
              read.refuse('postalCodes', `${code.slice(0, 12)}: ${hint}`);
              break;
            }
          }
        option.postalCodes = postalCodes;
      }
      return settings(`Saved the shipping option ${option.name}`, [shippingOption(option.id)], (w) =>
        ok(
          withCheckout(w, (c) => {
            const at = c.shippingOptions.findIndex((o) => o.id === option.id);
            const shippingOptions = [...c.shippingOptions];
            if (at >= 0) shippingOptions[at] = option;
            else shippingOptions.push(option);
            return { ...c, shippingOptions };
          }),
        ),
      );
    }
    case 'tax': {
      if (op === 'options') {
        const pricesIncludeTax = read.checked('pricesIncludeTax');
        const taxShipping = read.checked('taxShipping');
        const how = settingsKeys('store.checkout.tax.pricesIncludeTax', 'store.checkout.tax.taxShipping');
        return settings('Changed how tax is counted', [how], (w) =>
          ok(withCheckout(w, (c) => ({ ...c, tax: { ...c.tax, pricesIncludeTax, taxShipping } }))),
        );
      }
      if (op.startsWith('remove:')) {
        const key = op.slice('remove:'.length);
        return settings(`Removed the tax rate for ${key.replace(/\/$/, '')}`, [taxRateOf(key)], (w) =>
          w.store.checkout.tax.rates.some((r) => taxKey(r) === key)
            ? ok(
                withCheckout(w, (c) => ({
                  ...c,
                  tax: { ...c.tax, rates: c.tax.rates.filter((r) => taxKey(r) !== key) },
                })),
              )
            : err(`There is no tax rate for ${key} (any more): reload the page.`),
        );
      }
      const country = read.text('country');
      const region = read.text('region').toUpperCase();
      if (!(ADDRESS_COUNTRIES as readonly string[]).includes(country))
        read.refuse('country', `${country.slice(0, 20)} is not one of the expected options`);
      else if (region !== '' && regionName(country, region) === null)
        read.refuse('region', `${region.slice(0, 20)} is not a region code of ${country}`);
      const rate: TaxRate = {
        country: country as TaxRate['country'],
        rate: read.number('rate', true) ?? 0,
        name: read.text('name') || 'Tax',
      };
      if (region) rate.region = region;
      return settings(
        `Saved the tax rate for ${country}${region ? ` ${region}` : ''}`,
        [taxRateOf(taxKey(rate))],
        (w) =>
          ok(
            withCheckout(w, (c) => {
              const rates = c.tax.rates.filter((r) => taxKey(r) !== taxKey(rate));
              return { ...c, tax: { ...c.tax, rates: [...rates, rate] } };
            }),
          ),
      );
    }
    case 'coupons': {
      if (op.startsWith('remove:')) {
        const code = op.slice('remove:'.length);
        return done({
          subjects: [coupon(code)],
          permission: 'coupons.edit',
          summary: `Removed the coupon ${code}`,
          change: (w) => removeCoupon(w, code),
        });
      }
      const type = read.text('type') === 'fixed' ? 'fixed' : 'percent';
      const typed: Coupon = {
        code: read.text('code'),
        type,
        amount: type === 'fixed' ? read.money('amount') : read.whole('amount'),
        minimumSubtotal: read.money('minimumSubtotal', true) ?? 0,
        oncePerEmail: read.checked('oncePerEmail'),
      };
      const startsAt = read.date('startsAt', '00:00:00');
      const endsAt = read.date('endsAt', '00:00:00');
      const usageLimit = read.whole('usageLimit', true);
      if (startsAt) typed.startsAt = startsAt;
      if (endsAt) typed.endsAt = endsAt;
      if (usageLimit !== undefined) typed.usageLimit = usageLimit;
      return done({
        subjects: [coupon(typed.code)],
        permission: 'coupons.edit',
        summary: `Saved the coupon ${typed.code}`,
        change: (w) => ok(putCoupon(w, typed)),
      });
    }
    case 'payments': {
      const provider = read.text('provider');
      if (!['test', 'manual', 'stripe'].includes(provider))
        read.refuse('provider', `${provider.slice(0, 20)} is not one of the expected options`);
      const manualInstructions = one(form, 'manualInstructions').trim();
      return settings('Changed the payments', [settingsKeys('store.checkout.payments')], (w) =>
        ok(
          withCheckout(w, (c) => ({
            ...c,
            payments: {
              provider: provider as Website['store']['checkout']['payments']['provider'],
              manualInstructions: manualInstructions || c.payments.manualInstructions,
            },
          })),
        ),
      );
    }
    case 'captcha': {
      const provider = read.text('provider') as Website['captcha']['provider'];
      const captcha: Website['captcha'] = { provider };
      const siteKey = read.text('siteKey');
      const projectId = read.text('projectId');
      const scoreThreshold = read.number('scoreThreshold', true);
      if (siteKey) captcha.siteKey = siteKey;
      if (projectId) captcha.projectId = projectId;
      if (scoreThreshold !== undefined) captcha.scoreThreshold = scoreThreshold;
      return settings('Changed the CAPTCHA', [settingsKeys('captcha')], (w) => ok({ ...w, captcha }));
    }
    case 'popup': {
      if (!read.checked('enabled'))
        return settings('Turned the promo popup off', [settingsKeys('promoPopup')], (w) => {
          const next = { ...w };
          delete next.promoPopup;
          return ok(next);
        });
      const popup: NonNullable<Website['promoPopup']> = {
        formId: read.text('formId'),
        title: read.text('title'),
        showAfterSeconds: read.whole('showAfterSeconds'),
        showAgainAfterDays: read.whole('showAgainAfterDays'),
      };
      const text = read.text('text');
      if (text) popup.text = text;
      if (popup.title === '') read.refuse('title', 'Please enter the popup’s heading.');
      return settings('Changed the promo popup', [settingsKeys('promoPopup')], (w) => ok({ ...w, promoPopup: popup }));
    }
    case 'analytics': {
      const cookieConsent = read.text('cookieConsent') === 'required' ? 'required' : 'not-required';
      return settings('Changed the analytics', [settingsKeys('analytics')], (w) =>
        ok({ ...w, analytics: { ...w.analytics, cookieConsent } }),
      );
    }
    case 'email':
      return { problems: [{ field: 'op', message: 'The e-mail section has only its test e-mail.' }] };
  }
}

/** Adds `coupon`, or replaces the one with its code (whatever its case). */
function putCoupon(website: Website, coupon: Coupon): Website {
  return withCheckout(website, (c) => {
    const at = c.coupons.findIndex((x) => sameCode(x.code, coupon.code));
    const coupons = [...c.coupons];
    if (at >= 0) coupons[at] = coupon;
    else coupons.push(coupon);
    return { ...c, coupons };
  });
}

function removeCoupon(website: Website, code: string): Result<Website, string> {
  if (!website.store.checkout.coupons.some((c) => sameCode(c.code, code)))
    return err(`There is no coupon ${code.slice(0, 40)} (any more).`);
  return ok(withCheckout(website, (c) => ({ ...c, coupons: c.coupons.filter((x) => !sameCode(x.code, code)) })));
}

export function registerSettingsAdminRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  pages: AdminPages,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const stateOf = async (siteId: string): Promise<SettingsEditorState> => {
    const state = await readSettingsEditor(ctx.db, siteId);
    if (!state) throw new ApiError('site-not-found', `There is no site '${siteId}'.`);
    return state;
  };
  const retentionDays = () => {
    const raw = env.ANALYTICS_RETENTION_DAYS?.trim();
    return raw && /^\d{1,4}$/.test(raw) ? Number(raw) : 30;
  };

  interface Shown {
    section?: SettingsSectionId;
    notice?: { kind: 'done' | 'error'; text: string };
    problems?: Problem[];
    /** The section's form as posted (shown again after a refusal). */
    form?: Form;
    status?: number;
    query?: { shipping?: string | undefined; coupon?: string | undefined; tax?: string | undefined };
  }

  const settingsView = async (visit: AdminVisit, shown: Shown = {}): Promise<AdminView> => {
    const state = await stateOf(visit.site.id);
    const w = state.website;
    const checkout = w.store.checkout;
    const currency = w.currency as CurrencyCode;
    const money = (minor: number | undefined) => decimal(minor, currency);
    const ctxForm = { crumb: visit.crumb, crumbField: visit.crumbField, baseVersion: state.version };
    const can = (p: StaffPermission) => visit.staff.can(p);
    /** A field's value: as posted (after a refusal in this section), else as stored. */
    const posted = (section: SettingsSectionId) => (shown.section === section ? shown.form : undefined);
    const val = (section: SettingsSectionId, name: string, stored: string) => {
      const f = posted(section);
      return f ? one(f, name) : stored;
    };
    const errorOf = (section: SettingsSectionId, name: string) =>
      shown.section === section ? shown.problems?.find((p) => p.field === name)?.message : undefined;
    const noticeOf = (section: SettingsSectionId) =>
      shown.section === section && shown.notice
        ? {
            ...shown.notice,
            problems: (shown.problems ?? []).map((p) => ({ label: LABELS[p.field] ?? p.field, message: p.message })),
          }
        : undefined;
    const countryOptions = ADDRESS_COUNTRIES.map((c) => ({ value: c, label: c }));
    const env_ = (section: string) =>
      (ENVIRONMENT[section] ?? []).map((name): [string, string] => [name, isSet(env, name) ? 'set' : 'not set']);

    const editingOption = checkout.shippingOptions.find((o) => o.id === shown.query?.shipping);
    const editingCoupon = checkout.coupons.find((c) => sameCode(c.code, shown.query?.coupon ?? ''));
    const editingRate = checkout.tax.rates.find((r) => taxKey(r) === shown.query?.tax);
    const action = (section: SettingsSectionId) => `${SETTINGS_PATH}/${section}`;

    const store = (
      <SettingsSection id="store" title="Store" notice={noticeOf('store')}>
        {can('settings.edit') ? (
          <SectionForm {...ctxForm} action={action('store')} label="Store settings" button="Save the store settings">
            <SelectField
              section="store"
              name="currency"
              label="Currency"
              value={val('store', 'currency', currency)}
              options={CURRENCY_CODES.map((c) => ({ value: c, label: c }))}
              hint="Prices stay the numbers they are: change the currency before the prices, not after."
              error={errorOf('store', 'currency')}
            />
            <TextField
              section="store"
              name="minimumSubtotal"
              label="Minimum subtotal"
              inputMode="decimal"
              value={val('store', 'minimumSubtotal', money(w.store.minimumSubtotal))}
              hint="Checkout needs at least this subtotal; 0 for none."
              error={errorOf('store', 'minimumSubtotal')}
            />
            <fieldset>
              <legend>Pay later</legend>
              <CheckField
                section="store"
                name="payLaterEnabled"
                label="Offer pay later (in instalments) on product pages"
                checked={
                  posted('store') ? one(posted('store')!, 'payLaterEnabled') === 'yes' : w.store.payLater.enabled
                }
              />
              <TextField
                section="store"
                name="payLaterMin"
                label="For prices above"
                inputMode="decimal"
                value={val('store', 'payLaterMin', money(w.store.payLater.min))}
                error={errorOf('store', 'payLaterMin') ?? errorOf('store', 'min')}
              />
              <TextField
                section="store"
                name="payLaterMax"
                label="Up to"
                inputMode="decimal"
                value={val('store', 'payLaterMax', money(w.store.payLater.max))}
                error={errorOf('store', 'payLaterMax') ?? errorOf('store', 'max')}
              />
              <SelectField
                section="store"
                name="payLaterCountry"
                label="Pay later account's country"
                value={val('store', 'payLaterCountry', w.store.payLater.accountCountry)}
                options={['US', 'CA', 'AU', 'NZ', 'GB'].map((c) => ({ value: c, label: c }))}
              />
            </fieldset>
            <TextField
              section="store"
              name="shopEmail"
              type="email"
              label="Copy of each new order to"
              value={val('store', 'shopEmail', checkout.shopEmail ?? '')}
              hint="Admins and store managers always get one."
              error={errorOf('store', 'shopEmail')}
            />
            <TextField
              section="store"
              name="lowStockThreshold"
              label="Low stock at (units or fewer)"
              inputMode="numeric"
              value={val('store', 'lowStockThreshold', String(w.store.lowStockThreshold))}
              error={errorOf('store', 'lowStockThreshold')}
            />
          </SectionForm>
        ) : (
          <Facts
            label="Store settings"
            rows={[
              ['Currency', currency],
              ['Minimum subtotal', money(w.store.minimumSubtotal)],
              ['Pay later', w.store.payLater.enabled ? 'on' : 'off'],
            ]}
          />
        )}
      </SettingsSection>
    );

    const optionForm =
      posted('shipping') && one(posted('shipping')!, 'op') !== 'countries' ? posted('shipping') : undefined;
    const shippingValue = (name: string, stored: string) => (optionForm ? one(optionForm, name) : stored);
    const shipping = (
      <SettingsSection id="shipping" title="Shipping" notice={noticeOf('shipping')}>
        <AdminTableBox label="The shipping options">
          <table className="admin-table">
            <caption className="admin-sr-only">Shipping options</caption>
            <thead>
              <tr>
                <th scope="col">Option</th>
                <th scope="col">Rate</th>
                <th scope="col">Free over</th>
                <th scope="col">Countries</th>
                {can('settings.edit') ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {checkout.shippingOptions.map((o) => (
                <tr key={o.id}>
                  <th scope="row">{`${o.name} (${o.id})`}</th>
                  <td>{money(o.rate)}</td>
                  <td>{o.freeOver === undefined ? '—' : money(o.freeOver)}</td>
                  <td>
                    {o.countries.length ? o.countries.join(', ') : 'All shipped to'}
                    {o.postalCodes?.length ? ` (postal codes ${o.postalCodes.join(', ')})` : ''}
                  </td>
                  {can('settings.edit') ? (
                    <td>
                      <a
                        href={`${SETTINGS_PATH}?shipping=${encodeURIComponent(o.id)}#shipping`}
                        aria-label={`Edit ${o.name}`}
                      >
                        Edit
                      </a>{' '}
                      <RowButton
                        {...ctxForm}
                        action={action('shipping')}
                        op={`remove:${o.id}`}
                        label={`Remove ${o.name}`}
                        text="Remove"
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </AdminTableBox>
        {can('settings.edit') ? (
          <>
            <SectionForm
              {...ctxForm}
              action={action('shipping')}
              label={editingOption ? `Change ${editingOption.name}` : 'Add a shipping option'}
              button={editingOption ? 'Save the shipping option' : 'Add the shipping option'}
            >
              <h3>{editingOption ? `Change ${editingOption.name}` : 'Add a shipping option'}</h3>
              <input type="hidden" name="op" value="option" />
              {editingOption ? <input type="hidden" name="id" value={editingOption.id} /> : null}
              {editingOption ? null : (
                <TextField
                  section="shipping"
                  name="id"
                  label="Id"
                  value={shippingValue('id', '')}
                  hint="Lower-case letters, digits and dashes (standard, express); an option with this id is replaced."
                  error={errorOf('shipping', 'id')}
                />
              )}
              <TextField
                section="shipping"
                name="name"
                label="Name shown to shoppers"
                value={shippingValue('name', editingOption?.name ?? '')}
                error={errorOf('shipping', 'name')}
              />
              <TextField
                section="shipping"
                name="rate"
                label="Rate"
                inputMode="decimal"
                value={shippingValue('rate', money(editingOption?.rate))}
                error={errorOf('shipping', 'rate')}
              />
              <TextField
                section="shipping"
                name="freeOver"
                label="Free when the subtotal is at least (optional)"
                inputMode="decimal"
                value={shippingValue('freeOver', money(editingOption?.freeOver))}
                error={errorOf('shipping', 'freeOver')}
              />
              <CheckGroup
                section="shipping"
                name="countries"
                label="Only to these countries (none: every country shipped to)"
                values={optionForm ? many(optionForm, 'countries') : (editingOption?.countries ?? [])}
                options={countryOptions}
                error={errorOf('shipping', 'countries')}
              />
              <TextField
                section="shipping"
                name="postalCodes"
                label="Only to these postal codes (optional)"
                value={shippingValue('postalCodes', editingOption?.postalCodes?.join(', ') ?? '')}
                hint="With one country: whole codes or the part that names a region, separated by commas — ZIP codes (10001), UK outcodes (SW1A), Canadian FSAs (K1A), the first three characters of an Eircode (D02). Empty: anywhere in the country."
                error={errorOf('shipping', 'postalCodes')}
              />
            </SectionForm>
            <SectionForm
              {...ctxForm}
              action={action('shipping')}
              label="Countries shipped to"
              button="Save the countries"
            >
              <input type="hidden" name="op" value="countries" />
              <CheckGroup
                section="shipping-to"
                name="shipsTo"
                label="Ships to"
                hint="The checkout's address form lists these countries."
                values={posted('shipping') && !optionForm ? many(posted('shipping')!, 'shipsTo') : checkout.shipsTo}
                options={countryOptions}
                error={errorOf('shipping', 'shipsTo')}
              />
            </SectionForm>
          </>
        ) : (
          <Facts label="Countries shipped to" rows={[['Ships to', checkout.shipsTo.join(', ')]]} />
        )}
      </SettingsSection>
    );

    const rateForm = posted('tax') && one(posted('tax')!, 'op') === 'rate' ? posted('tax') : undefined;
    const tax = (
      <SettingsSection id="tax" title="Tax" notice={noticeOf('tax')}>
        <AdminTableBox label="The tax rates">
          <table className="admin-table">
            <caption className="admin-sr-only">Tax rates</caption>
            <thead>
              <tr>
                <th scope="col">Place</th>
                <th scope="col">Rate</th>
                <th scope="col">Name</th>
                {can('settings.edit') ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {checkout.tax.rates.map((r) => {
                const place = r.region ? `${r.country} ${regionName(r.country, r.region) ?? r.region}` : r.country;
                return (
                  <tr key={taxKey(r)}>
                    <th scope="row">{place}</th>
                    <td>{`${r.rate} %`}</td>
                    <td>{r.name}</td>
                    {can('settings.edit') ? (
                      <td>
                        <a
                          href={`${SETTINGS_PATH}?tax=${encodeURIComponent(taxKey(r))}#tax`}
                          aria-label={`Edit the rate for ${place}`}
                        >
                          Edit
                        </a>{' '}
                        <RowButton
                          {...ctxForm}
                          action={action('tax')}
                          op={`remove:${taxKey(r)}`}
                          label={`Remove the rate for ${place}`}
                          text="Remove"
                        />
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </AdminTableBox>
        {can('settings.edit') ? (
          <>
            <SectionForm
              {...ctxForm}
              action={action('tax')}
              label="Add or change a tax rate"
              button="Save the tax rate"
            >
              <h3>{editingRate ? 'Change the tax rate' : 'Add a tax rate'}</h3>
              <input type="hidden" name="op" value="rate" />
              <SelectField
                section="tax"
                name="country"
                label="Country"
                value={rateForm ? one(rateForm, 'country') : (editingRate?.country ?? 'US')}
                options={countryOptions}
                error={errorOf('tax', 'country')}
              />
              <TextField
                section="tax"
                name="region"
                label="Region code (optional)"
                value={rateForm ? one(rateForm, 'region') : (editingRate?.region ?? '')}
                hint="Like NY or ON; empty for the whole country. A region's rate wins over its country's."
                error={errorOf('tax', 'region')}
              />
              <TextField
                section="tax"
                name="rate"
                label="Rate (percent)"
                inputMode="decimal"
                value={rateForm ? one(rateForm, 'rate') : editingRate ? String(editingRate.rate) : ''}
                error={errorOf('tax', 'rate')}
              />
              <TextField
                section="tax"
                name="name"
                label="Name on the receipt"
                value={rateForm ? one(rateForm, 'name') : (editingRate?.name ?? 'Tax')}
                error={errorOf('tax', 'name')}
              />
            </SectionForm>
            <SectionForm {...ctxForm} action={action('tax')} label="How tax is counted" button="Save">
              <input type="hidden" name="op" value="options" />
              <CheckField
                section="tax"
                name="pricesIncludeTax"
                label="Prices include tax (VAT style)"
                checked={checkout.tax.pricesIncludeTax}
              />
              <CheckField
                section="tax"
                name="taxShipping"
                label="Tax shipping at the same rate"
                checked={checkout.tax.taxShipping}
              />
            </SectionForm>
          </>
        ) : null}
      </SettingsSection>
    );

    const couponForm = posted('coupons');
    const couponValue = (name: string, stored: string) => (couponForm ? one(couponForm, name) : stored);
    const couponAmount = (c: Coupon) => (c.type === 'percent' ? `${c.amount} %` : money(c.amount));
    const coupons = (
      <SettingsSection id="coupons" title="Coupons" notice={noticeOf('coupons')}>
        <AdminTableBox label="The coupons">
          <table className="admin-table">
            <caption className="admin-sr-only">Coupons</caption>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Off</th>
                <th scope="col">Minimum subtotal</th>
                <th scope="col">Dates (UTC)</th>
                <th scope="col">Uses</th>
                {can('coupons.edit') ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {checkout.coupons.map((c) => (
                <tr key={c.code}>
                  <th scope="row">{c.code}</th>
                  <td>{couponAmount(c)}</td>
                  <td>{c.minimumSubtotal ? money(c.minimumSubtotal) : '—'}</td>
                  <td>{`${c.startsAt?.slice(0, 10) ?? '…'} – ${c.endsAt?.slice(0, 10) ?? '…'}`}</td>
                  <td>{`${c.usageLimit === undefined ? 'No limit' : `At most ${c.usageLimit}`}${c.oncePerEmail ? ', once per e-mail' : ''}`}</td>
                  {can('coupons.edit') ? (
                    <td>
                      <a
                        href={`${SETTINGS_PATH}?coupon=${encodeURIComponent(c.code)}#coupons`}
                        aria-label={`Edit ${c.code}`}
                      >
                        Edit
                      </a>{' '}
                      <RowButton
                        {...ctxForm}
                        action={action('coupons')}
                        op={`remove:${c.code}`}
                        label={`Remove ${c.code}`}
                        text="Remove"
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </AdminTableBox>
        {can('coupons.edit') ? (
          <SectionForm
            {...ctxForm}
            action={action('coupons')}
            label={editingCoupon ? `Change ${editingCoupon.code}` : 'Add a coupon'}
            button={editingCoupon ? 'Save the coupon' : 'Add the coupon'}
          >
            <h3>{editingCoupon ? `Change ${editingCoupon.code}` : 'Add a coupon'}</h3>
            <input type="hidden" name="op" value="coupon" />
            <TextField
              section="coupons"
              name="code"
              label="Code"
              value={couponValue('code', editingCoupon?.code ?? '')}
              hint="What shoppers type (letters, digits, - and _; any case). A coupon with this code is replaced."
              error={errorOf('coupons', 'code')}
            />
            <SelectField
              section="coupons"
              name="type"
              label="Type"
              value={couponValue('type', editingCoupon?.type ?? 'percent')}
              options={[
                { value: 'percent', label: 'Percent off the subtotal' },
                { value: 'fixed', label: 'Amount off the subtotal' },
              ]}
            />
            <TextField
              section="coupons"
              name="amount"
              label="Amount (percent, or money off)"
              inputMode="decimal"
              value={couponValue(
                'amount',
                editingCoupon
                  ? editingCoupon.type === 'percent'
                    ? String(editingCoupon.amount)
                    : money(editingCoupon.amount)
                  : '',
              )}
              error={errorOf('coupons', 'amount')}
            />
            <TextField
              section="coupons"
              name="minimumSubtotal"
              label="Minimum subtotal (optional)"
              inputMode="decimal"
              value={couponValue(
                'minimumSubtotal',
                editingCoupon?.minimumSubtotal ? money(editingCoupon.minimumSubtotal) : '',
              )}
              error={errorOf('coupons', 'minimumSubtotal')}
            />
            <TextField
              section="coupons"
              name="startsAt"
              type="date"
              label="Starts (optional, UTC)"
              value={couponValue('startsAt', editingCoupon?.startsAt?.slice(0, 10) ?? '')}
              error={errorOf('coupons', 'startsAt')}
            />
            <TextField
              section="coupons"
              name="endsAt"
              type="date"
              label="Ends (optional, at the start of that day, UTC)"
              value={couponValue('endsAt', editingCoupon?.endsAt?.slice(0, 10) ?? '')}
              error={errorOf('coupons', 'endsAt')}
            />
            <TextField
              section="coupons"
              name="usageLimit"
              label="Uses in all (optional)"
              inputMode="numeric"
              value={couponValue('usageLimit', editingCoupon?.usageLimit?.toString() ?? '')}
              error={errorOf('coupons', 'usageLimit')}
            />
            <CheckField
              section="coupons"
              name="oncePerEmail"
              label="Once per e-mail address"
              checked={couponForm ? one(couponForm, 'oncePerEmail') === 'yes' : (editingCoupon?.oncePerEmail ?? false)}
            />
          </SectionForm>
        ) : null}
      </SettingsSection>
    );

    const payments = (
      <SettingsSection id="payments" title="Payments" notice={noticeOf('payments')}>
        <Facts label="Payment secrets in the environment" rows={env_('payments')} />
        {can('settings.edit') ? (
          <SectionForm {...ctxForm} action={action('payments')} label="Payments" button="Save the payments">
            <SelectField
              section="payments"
              name="provider"
              label="Provider"
              value={val('payments', 'provider', checkout.payments.provider)}
              options={[
                { value: 'test', label: 'Test (the demo card form; a test store)' },
                { value: 'manual', label: 'Manual (bank transfer, pay on pickup)' },
                { value: 'stripe', label: 'Stripe (keys from the environment)' },
              ]}
              hint="Stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY set where Vitrine runs; they are never stored in the site."
              error={errorOf('payments', 'provider')}
            />
            <TextArea
              section="payments"
              name="manualInstructions"
              label="Instructions for a manual payment"
              maxLength={2000}
              value={val('payments', 'manualInstructions', checkout.payments.manualInstructions)}
              error={errorOf('payments', 'manualInstructions')}
            />
          </SectionForm>
        ) : (
          <Facts label="Payments" rows={[['Provider', checkout.payments.provider]]} />
        )}
      </SettingsSection>
    );

    const email = (
      <SettingsSection id="email" title="E-mail" notice={noticeOf('email')}>
        <p className="admin-muted">
          E-mail waits in the outbox until a mail server (SMTP_URL) sends it; the sender is MAIL_FROM. Both are set
          where Vitrine runs. The copy of each new order goes to the address in Store.
        </p>
        <Facts label="Mail settings in the environment" rows={env_('email')} />
        {can('settings.edit') ? (
          <SectionForm {...ctxForm} action={action('email')} label="Test e-mail" button="Send me a test e-mail">
            <input type="hidden" name="op" value="test" />
            <p>{`A test e-mail goes to ${visit.staff.email} through the outbox.`}</p>
          </SectionForm>
        ) : null}
      </SettingsSection>
    );

    const captcha = (
      <SettingsSection id="captcha" title="CAPTCHA" notice={noticeOf('captcha')}>
        <Facts label="CAPTCHA secrets in the environment" rows={env_('captcha')} />
        {can('settings.edit') ? (
          <SectionForm {...ctxForm} action={action('captcha')} label="CAPTCHA" button="Save the CAPTCHA">
            <SelectField
              section="captcha"
              name="provider"
              label="Provider"
              value={val('captcha', 'provider', w.captcha.provider)}
              options={[
                { value: 'altcha', label: 'ALTCHA (self-hosted, works offline)' },
                { value: 'turnstile', label: 'Cloudflare Turnstile' },
                { value: 'recaptcha-enterprise', label: 'reCAPTCHA Enterprise' },
                { value: 'none', label: 'None' },
              ]}
              error={errorOf('captcha', 'provider')}
            />
            <TextField
              section="captcha"
              name="siteKey"
              label="Site key (Turnstile, reCAPTCHA)"
              value={val('captcha', 'siteKey', w.captcha.siteKey ?? '')}
              error={errorOf('captcha', 'siteKey')}
            />
            <TextField
              section="captcha"
              name="projectId"
              label="Google Cloud project (reCAPTCHA)"
              value={val('captcha', 'projectId', w.captcha.projectId ?? '')}
              error={errorOf('captcha', 'projectId')}
            />
            <TextField
              section="captcha"
              name="scoreThreshold"
              label="Lowest score, 0 to 1 (reCAPTCHA; default 0.5)"
              inputMode="decimal"
              value={val('captcha', 'scoreThreshold', w.captcha.scoreThreshold?.toString() ?? '')}
              error={errorOf('captcha', 'scoreThreshold')}
            />
          </SectionForm>
        ) : (
          <Facts label="CAPTCHA" rows={[['Provider', w.captcha.provider]]} />
        )}
      </SettingsSection>
    );

    const popup = w.promoPopup;
    const popupSection = (
      <SettingsSection id="popup" title="Promo popup" notice={noticeOf('popup')}>
        {can('settings.edit') ? (
          <SectionForm {...ctxForm} action={action('popup')} label="Promo popup" button="Save the promo popup">
            <CheckField
              section="popup"
              name="enabled"
              label="Show a popup with a form (not on the cart and checkout)"
              checked={posted('popup') ? one(posted('popup')!, 'enabled') === 'yes' : popup !== undefined}
            />
            <SelectField
              section="popup"
              name="formId"
              label="Form"
              value={val('popup', 'formId', popup?.formId ?? state.forms[0]?.id ?? '')}
              options={state.forms.map((f) => ({ value: f.id, label: f.name }))}
              error={errorOf('popup', 'formId')}
            />
            <TextField
              section="popup"
              name="title"
              label="Heading"
              maxLength={120}
              value={val('popup', 'title', popup?.title ?? '')}
              error={errorOf('popup', 'title')}
            />
            <TextField
              section="popup"
              name="text"
              label="Text (optional)"
              maxLength={500}
              value={val('popup', 'text', popup?.text ?? '')}
              error={errorOf('popup', 'text')}
            />
            <TextField
              section="popup"
              name="showAfterSeconds"
              label="Opens after (seconds)"
              inputMode="numeric"
              value={val('popup', 'showAfterSeconds', String(popup?.showAfterSeconds ?? 5))}
              error={errorOf('popup', 'showAfterSeconds')}
            />
            <TextField
              section="popup"
              name="showAgainAfterDays"
              label="Shown again after (days; 0: every page)"
              inputMode="numeric"
              value={val('popup', 'showAgainAfterDays', String(popup?.showAgainAfterDays ?? 7))}
              error={errorOf('popup', 'showAgainAfterDays')}
            />
          </SectionForm>
        ) : (
          <Facts label="Promo popup" rows={[['Popup', popup ? popup.title : 'off']]} />
        )}
      </SettingsSection>
    );

    const analytics = (
      <SettingsSection id="analytics" title="Analytics" notice={noticeOf('analytics')}>
        <Facts
          label="Analytics retention"
          rows={[['Raw visits kept (ANALYTICS_RETENTION_DAYS)', `${retentionDays()} days; the daily figures for good`]]}
        />
        {can('settings.edit') ? (
          <SectionForm {...ctxForm} action={action('analytics')} label="Analytics" button="Save the analytics">
            <SelectField
              section="analytics"
              name="cookieConsent"
              label="Cookie consent"
              value={val('analytics', 'cookieConsent', w.analytics.cookieConsent)}
              options={[
                { value: 'not-required', label: 'Not required: count visits at once' },
                { value: 'required', label: 'Required: ask visitors first (a banner)' },
              ]}
            />
          </SectionForm>
        ) : null}
      </SettingsSection>
    );

    return {
      title: 'Settings',
      status: shown.status ?? 200,
      body: (
        <>
          <AdminTitle title="Settings" />
          {shown.notice && !shown.section ? (
            <AdminNotice kind={shown.notice.kind}>{shown.notice.text}</AdminNotice>
          ) : null}
          <p className="admin-muted">
            {`Each save is a new version of the site (now version ${state.version}), which the versions page can compare and restore.`}
          </p>
          <SettingsContents />
          {store}
          {shipping}
          {tax}
          {coupons}
          {payments}
          {email}
          {captcha}
          {popupSection}
          {analytics}
        </>
      ),
    };
  };

  const sendTestEmail = async (staff: Staff, site: { id: string; title: string }): Promise<string> => {
    const sent = await inTransaction(ctx.db, async (trx) => {
      const mail = testEmail(site.title, staff.email);
      const id = await enqueueEmail(trx, { siteId: site.id, kind: 'test', to: staff.email, ...mail });
      await recordAudit(trx, {
        siteId: site.id,
        actor: staff.actor,
        action: 'settings.test-email',
        subject: { type: 'site', id: site.id },
        summary: `Sent a test e-mail to ${staff.email}`,
      });
      return ok(id);
    });
    if (!sent.ok) throw new Error('a test e-mail that could not be queued');
    return sent.value;
  };

  app.get(SETTINGS_PATH, { schema: settingsPage }, (request, reply) =>
    pages.answer(request, reply, looking, (visit) => {
      const query = settingsPageQuery.safeParse(request.query);
      const q = query.success ? query.data : {};
      const section = SETTINGS_SECTIONS.find((s) => s.id === q.section)?.id;
      return settingsView(visit, {
        ...(q.done ? { notice: { kind: 'done', text: q.done } } : {}),
        ...(section ? { section } : {}),
        query: { shipping: q.shipping, coupon: q.coupon, tax: q.tax },
      });
    }),
  );

  app.get('/api/admin/settings', { schema: getSettingsRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'settings.read');
    const state = await stateOf((await siteOf(request)).id);
    const w = state.website;
    return {
      version: state.version,
      settings: {
        currency: w.currency,
        store: w.store,
        captcha: w.captcha,
        promoPopup: w.promoPopup ?? null,
        analytics: w.analytics,
      },
      environment: Object.fromEntries(
        Object.values(ENVIRONMENT)
          .flat()
          .map((name) => [name, isSet(env, name)]),
      ),
      analyticsRetentionDays: retentionDays(),
    };
  });

  app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: 32 * 1024 });

    scope.put('/api/admin/settings', { schema: putSettingsRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'settings.edit');
      const site = await siteOf(request);
      const { baseVersion: base, ...body } = parseInput(settingsBody, request.body, 'body');
      const keys = (Object.keys(body) as (keyof typeof body)[]).filter((k) => body[k] !== undefined);
      if (keys.length === 0) throw new ApiError('invalid-input', 'The request body names no setting to save.');
      const saved = await saveSettings(ctx.db, site.id, {
        baseVersion: base,
        subjects: [settingsKeys(...keys)],
        staff,
        action: 'settings.edit',
        summary: `Changed the settings: ${keys.join(', ')}`,
        change: (website) => {
          const next: Website = { ...website };
          if (body.currency !== undefined) next.currency = body.currency;
          if (body.store !== undefined) next.store = body.store;
          if (body.captcha !== undefined) next.captcha = body.captcha;
          if (body.analytics !== undefined) next.analytics = body.analytics;
          if (body.promoPopup === null) delete next.promoPopup;
          else if (body.promoPopup !== undefined) next.promoPopup = body.promoPopup;
          return ok(next);
        },
      });
      if (!saved.ok) throw editApiError(saved.error);
      const w = saved.value.site.settings;
      return {
        version: saved.value.version.number,
        settings: {
          currency: w.currency,
          store: w.store,
          captcha: w.captcha,
          promoPopup: w.promoPopup ?? null,
          analytics: w.analytics,
        },
      };
    });

    scope.put('/api/admin/coupons/:code', { schema: putCouponRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'coupons.edit');
      const site = await siteOf(request);
      const { code } = parseInput(couponParams, request.params, 'params');
      const body = parseInput(couponBody, request.body, 'body');
      if (!sameCode(body.coupon.code, code))
        throw new ApiError('invalid-input', `coupon.code must be the code of the address (${code}).`, {
          field: 'coupon.code',
        });
      const saved = await saveSettings(ctx.db, site.id, {
        baseVersion: body.baseVersion,
        subjects: [coupon(code)],
        staff,
        action: 'coupons.edit',
        summary: `Saved the coupon ${body.coupon.code}`,
        change: (w) => ok(putCoupon(w, body.coupon)),
      });
      if (!saved.ok) throw editApiError(saved.error);
      return {
        version: saved.value.version.number,
        coupon: saved.value.site.settings.store.checkout.coupons.find((c) => sameCode(c.code, code)),
      };
    });

    scope.delete('/api/admin/coupons/:code', { schema: deleteCouponRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'coupons.edit');
      const site = await siteOf(request);
      const { code } = parseInput(couponParams, request.params, 'params');
      const body = parseInput(couponDeleteBody, request.body ?? {}, 'body');
      const saved = await saveSettings(ctx.db, site.id, {
        baseVersion: body.baseVersion,
        subjects: [coupon(code)],
        staff,
        action: 'coupons.edit',
        summary: `Removed the coupon ${code}`,
        change: (w) => removeCoupon(w, code),
      });
      if (!saved.ok) throw editApiError(saved.error);
      return { version: saved.value.version.number };
    });

    scope.post('/api/admin/settings/test-email', { schema: testEmailRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'settings.edit');
      const site = await siteOf(request);
      const outboxId = await sendTestEmail(staff, site);
      return { to: staff.email, outboxId };
    });

    scope.post(`${SETTINGS_PATH}/:section`, { schema: settingsFormRoute }, (request, reply: FastifyReply) => {
      const params = settingsSectionParams.safeParse(request.params);
      const section = params.success ? params.data.section : undefined;
      const permission: StaffPermission = section === 'coupons' ? 'coupons.edit' : 'settings.edit';
      return pages.action(request, reply, { section: SETTINGS_PATH, permission }, async (visit) => {
        if (!section)
          return settingsView(visit, {
            notice: { kind: 'error', text: 'There is no such section of the settings.' },
            status: 404,
          });
        const form = (request.body ?? {}) as Form;
        const back = (text: string) =>
          `${SETTINGS_PATH}?section=${section}&done=${encodeURIComponent(text)}#${section}`;
        if (section === 'email') {
          await sendTestEmail(visit.staff, visit.site);
          return back(`A test e-mail to ${visit.staff.email} is in the outbox.`);
        }
        const state = await stateOf(visit.site.id);
        const reading = readSection(section, form, state);
        if (!reading.change)
          return settingsView(visit, {
            section,
            form,
            problems: reading.problems,
            notice: { kind: 'error', text: 'Not saved:' },
            status: 422,
          });
        const base = Number(one(form, 'baseVersion'));
        if (!Number.isInteger(base) || base < 1)
          return settingsView(visit, {
            section,
            form,
            notice: { kind: 'error', text: 'The form is not one of this page: reload the page and try again.' },
            status: 400,
          });
        const change = reading.change;
        const saved = await saveSettings(ctx.db, visit.site.id, {
          baseVersion: base,
          subjects: change.subjects,
          staff: visit.staff,
          action: change.permission === 'coupons.edit' ? 'coupons.edit' : 'settings.edit',
          summary: change.summary,
          change: change.change,
        });
        if (!saved.ok) {
          const { text, status } = editNotice(saved.error);
          const problems = saved.error.type === 'INVALID' ? saved.error.problems.map(problemOf) : [];
          return settingsView(visit, {
            section,
            form,
            problems,
            notice: { kind: 'error', text: problems.length ? 'Not saved:' : text },
            status,
          });
        }
        return back(`${change.summary}: saved as version ${saved.value.version.number}.`);
      });
    });
  });
}
