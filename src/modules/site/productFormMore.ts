/**
 * The product form's sections beyond the variants and images (issue 26), without JavaScript: the product form (a form
 * of the site), the subscription plan, merchandising (scarcity, sold-out text, restock sign-up), related products and
 * add-ons, tags, and the SEO title and description — read from the posted fields, shown from a stored product, and
 * made into the editor's input (./productEdit.ts). ./productForm.ts holds the rest of the form.
 */
import type { CurrencyCode } from '../../core/currency';
import { fractionDigits } from '../../core/currency';
import { parseMoney } from '../../core/money';
import { ADD_ONS_MAX, RELATED_PRODUCTS_MAX } from '../../core/relatedProducts';
import { err, ok, type Result } from '../../core/result';
import { BILLING_UNITS } from '../../core/subscription';
import { DEFAULT_SCARCITY_TEXT, DEFAULT_SCARCITY_THRESHOLD } from './productDefaults';
import { freeId, type ProductInput, type SubscriptionInput } from './productEdit';
import type { Product } from './schema';

/** Most subscription options the form shows (the API takes 20). */
export const MAX_FORM_SUBSCRIPTION_OPTIONS = 10;
/** Empty rows the form offers after the chosen related products and add-ons (and subscription options). */
export const SPARE_ROWS = 3;

/** The site's records the form chooses from. */
export interface ProductChoices {
  /** Forms of the site (a product form, a subscription option's form). */
  forms: readonly { id: string; name: string }[];
  /** Products of the site (related products, add-ons), in the site's order. */
  products: readonly { id: string; name: string }[];
}

export interface SubscriptionOptionState {
  id: string;
  price: string;
  salePrice: string;
  formId: string;
  buttonText: string;
}

export interface MoreFormState {
  /** The product form's id ('' none). */
  formId: string;
  subscription: {
    on: boolean;
    every: string;
    unit: string;
    /** '' or 0: until cancelled. */
    cycles: string;
    options: SubscriptionOptionState[];
  };
  merchandising: {
    scarcityOn: boolean;
    scarcityText: string;
    scarcityThreshold: string;
    scarcityShownByDefault: boolean;
    soldOutText: string;
    restockOn: boolean;
    restockMessage: string;
    restockSuccess: string;
    mailingList: boolean;
    optIn: boolean;
    restockHidden: boolean;
  };
  /** 'auto': the next products of its collection; 'chosen': these; 'none'. */
  related: { mode: 'auto' | 'chosen' | 'none'; ids: string[] };
  addOns: string[];
  /** As typed: 'ceramics, mugs'. */
  tags: string;
  seoTitle: string;
  seoDescription: string;
  /**
   * The sections a posted form had (a form made before a section existed, or a script's post, leaves it as stored);
   * absent: every section.
   */
  posted?: ReadonlySet<MoreSection> | undefined;
}

export type MoreSection = 'formId' | 'subscription' | 'merchandising' | 'related' | 'addOns' | 'tags' | 'seo';

/** A field each section always posts. */
const SECTION_FIELDS: Readonly<Record<MoreSection, string>> = {
  formId: 'formId',
  subscription: 'sub.every',
  merchandising: 'scarcity.threshold',
  related: 'related.mode',
  addOns: 'addOn0',
  tags: 'tags',
  seo: 'seo.title',
};

const moneyText = (minor: number | undefined, currency: CurrencyCode): string =>
  minor === undefined ? '' : (minor / 10 ** fractionDigits(currency)).toFixed(fractionDigits(currency));

/** A stored product's sections as the form shows them. */
export function formOfMore(product: Product, currency: CurrencyCode): MoreFormState {
  const { scarcity, restockNotifications: restock, customSoldOutText } = product.merchandising;
  const sub = product.subscription;
  return {
    formId: product.additionalFieldsFormId ?? '',
    subscription: {
      on: sub !== undefined,
      every: String(sub?.billingPeriod.value ?? 1),
      unit: sub?.billingPeriod.unit ?? 'MONTH',
      cycles: String(sub?.numBillingCycles ?? 0),
      options: (sub?.options ?? []).map((o) => ({
        id: o.id,
        price: moneyText(o.price, currency),
        salePrice: moneyText(o.salePrice, currency),
        formId: o.additionalFieldsFormId ?? '',
        buttonText: o.customAddButtonText ?? '',
      })),
    },
    merchandising: {
      scarcityOn: scarcity.enabled,
      scarcityText: scarcity.text,
      scarcityThreshold: String(scarcity.threshold),
      scarcityShownByDefault: scarcity.shownByDefault,
      soldOutText: customSoldOutText ?? '',
      restockOn: restock.enabled,
      restockMessage: restock.message ?? '',
      restockSuccess: restock.successMessage ?? '',
      mailingList: restock.mailingListSignUpEnabled,
      optIn: restock.mailingListOptInByDefault,
      restockHidden: restock.hiddenByDefault,
    },
    related: {
      mode: product.relatedProductIds === undefined ? 'auto' : product.relatedProductIds.length ? 'chosen' : 'none',
      ids: product.relatedProductIds ?? [],
    },
    addOns: product.addOnProductIds ?? [],
    tags: product.tags.join(', '),
    seoTitle: product.seo?.title ?? '',
    seoDescription: product.seo?.description ?? '',
  };
}

/** A new product's sections. */
export function newMoreForm(): MoreFormState {
  return {
    formId: '',
    subscription: { on: false, every: '1', unit: 'MONTH', cycles: '0', options: [] },
    merchandising: {
      scarcityOn: false,
      scarcityText: DEFAULT_SCARCITY_TEXT,
      scarcityThreshold: String(DEFAULT_SCARCITY_THRESHOLD),
      scarcityShownByDefault: true,
      soldOutText: '',
      restockOn: false,
      restockMessage: '',
      restockSuccess: '',
      mailingList: false,
      optIn: false,
      restockHidden: false,
    },
    related: { mode: 'auto', ids: [] },
    addOns: [],
    tags: '',
    seoTitle: '',
    seoDescription: '',
  };
}

const text = (form: Record<string, unknown>, name: string, max: number): string => {
  const value = form[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};
const checked = (form: Record<string, unknown>, name: string) => text(form, name, 10) === 'yes';

/** The ids typed in a list of rows `{prefix}{n}`, in order, empty ones left out. */
const rowsOf = (form: Record<string, unknown>, prefix: string, most: number): string[] => {
  const ids: string[] = [];
  for (let i = 0; i < most + SPARE_ROWS && `${prefix}${i}` in form; i++) {
    const id = text(form, `${prefix}${i}`, 200).trim();
    if (id !== '') ids.push(id);
  }
  return ids;
};

/** The posted sections as the form shows them again. */
export function readMoreForm(form: Record<string, unknown>): MoreFormState {
  const options: SubscriptionOptionState[] = [];
  for (let i = 0; i < MAX_FORM_SUBSCRIPTION_OPTIONS + SPARE_ROWS && `sub${i}.price` in form; i++) {
    const option = {
      id: text(form, `sub${i}.id`, 64).trim(),
      price: text(form, `sub${i}.price`, 30).trim(),
      salePrice: text(form, `sub${i}.salePrice`, 30).trim(),
      formId: text(form, `sub${i}.formId`, 64),
      buttonText: text(form, `sub${i}.button`, 60),
    };
    // An empty spare row, or one marked for removal, is no option.
    const blank = option.id === '' && option.price === '' && option.salePrice === '' && option.buttonText === '';
    if (!blank && !checked(form, `sub${i}.remove`)) options.push(option);
  }
  const mode = text(form, 'related.mode', 10);
  return {
    formId: text(form, 'formId', 64),
    subscription: {
      on: checked(form, 'sub.on'),
      every: text(form, 'sub.every', 10).trim(),
      unit: text(form, 'sub.unit', 10),
      cycles: text(form, 'sub.cycles', 10).trim(),
      options,
    },
    merchandising: {
      scarcityOn: checked(form, 'scarcity.on'),
      scarcityText: text(form, 'scarcity.text', 200),
      scarcityThreshold: text(form, 'scarcity.threshold', 10).trim(),
      scarcityShownByDefault: checked(form, 'scarcity.shownByDefault'),
      soldOutText: text(form, 'soldOutText', 60),
      restockOn: checked(form, 'restock.on'),
      restockMessage: text(form, 'restock.message', 500),
      restockSuccess: text(form, 'restock.success', 500),
      mailingList: checked(form, 'restock.mailingList'),
      optIn: checked(form, 'restock.optIn'),
      restockHidden: checked(form, 'restock.hidden'),
    },
    related: {
      mode: mode === 'chosen' || mode === 'none' ? mode : 'auto',
      ids: rowsOf(form, 'related', RELATED_PRODUCTS_MAX),
    },
    addOns: rowsOf(form, 'addOn', ADD_ONS_MAX),
    tags: text(form, 'tags', 2000),
    seoTitle: text(form, 'seo.title', 200),
    seoDescription: text(form, 'seo.description', 1000),
    posted: new Set(
      (Object.entries(SECTION_FIELDS) as [MoreSection, string][])
        .filter(([, field]) => field in form)
        .map(([section]) => section),
    ),
  };
}

/** A product typed by its id or its name (any case): its id; what matches none is kept as typed (refused later). */
export function productIdOf(typed: string, products: ProductChoices['products']): string {
  if (products.some((p) => p.id === typed)) return typed;
  const named = products.filter((p) => p.name.trim().toLowerCase() === typed.toLowerCase());
  return named.length === 1 ? named[0]!.id : typed;
}

/** The sections as the editor's input, or their fields' problems. */
export function inputOfMore(
  state: MoreFormState,
  context: { currency: CurrencyCode; choices: ProductChoices; productType: number },
): Result<Partial<ProductInput>, Record<string, string>> {
  const errors: Record<string, string> = {};
  const whole = (typed: string, field: string, min: number, max: number, empty: number): number => {
    if (typed === '') return empty;
    const value = Number(typed);
    if (/^\d+$/.test(typed) && value >= min && value <= max) return value;
    errors[field] = `must be a whole number from ${min} to ${max}`;
    return empty;
  };
  const money = (typed: string, field: string): number | undefined => {
    const parsed = parseMoney(
      { decimalValue: typed.replace(/,/g, ''), currencyCode: context.currency },
      context.currency,
    );
    if (parsed.ok) return parsed.value.minorUnits;
    errors[field] =
      fractionDigits(context.currency) === 0
        ? 'must be an amount like 1200'
        : `must be an amount like 12.50 (at most ${fractionDigits(context.currency)} decimals)`;
    return undefined;
  };

  let subscription: SubscriptionInput | null = null;
  // A gift card shows no subscription section: its stored plan (none) stays.
  if (state.subscription.on && context.productType !== 4) {
    const unit = (BILLING_UNITS as readonly string[]).includes(state.subscription.unit)
      ? (state.subscription.unit as SubscriptionInput['billingPeriod']['unit'])
      : ((errors['subscription.billingPeriod'] = 'must be weeks, months or years'), 'MONTH');
    const taken = new Set(state.subscription.options.map((o) => o.id).filter(Boolean));
    subscription = {
      billingPeriod: { value: whole(state.subscription.every, 'subscription.billingPeriod', 1, 52, 1), unit },
      numBillingCycles: whole(state.subscription.cycles, 'subscription.numBillingCycles', 0, 1000, 0),
      options: state.subscription.options.map((o, i) => {
        const id = o.id || freeId(`option-${i + 1}`, taken);
        taken.add(id);
        const salePrice = o.salePrice === '' ? undefined : money(o.salePrice, `subscription.options.${i}.salePrice`);
        return {
          id,
          price:
            o.price === ''
              ? ((errors[`subscription.options.${i}.price`] = 'must not be empty'), 0)
              : (money(o.price, `subscription.options.${i}.price`) ?? 0),
          ...(salePrice !== undefined ? { salePrice } : {}),
          ...(o.formId ? { additionalFieldsFormId: o.formId } : {}),
          ...(o.buttonText.trim() ? { customAddButtonText: o.buttonText } : {}),
        };
      }),
    };
  }

  const m = state.merchandising;
  const merchandising = {
    scarcity: {
      enabled: m.scarcityOn,
      text: m.scarcityText,
      threshold: whole(m.scarcityThreshold, 'merchandising.scarcity.threshold', 1, 1000, DEFAULT_SCARCITY_THRESHOLD),
      shownByDefault: m.scarcityShownByDefault,
    },
    customSoldOutText: m.soldOutText,
    restockNotifications: {
      enabled: m.restockOn,
      message: m.restockMessage,
      successMessage: m.restockSuccess,
      mailingListSignUpEnabled: m.mailingList,
      mailingListOptInByDefault: m.optIn,
      hiddenByDefault: m.restockHidden,
    },
  };
  const products = context.choices.products;
  const related =
    state.related.mode === 'auto'
      ? null
      : state.related.mode === 'none'
        ? []
        : state.related.ids.map((typed) => productIdOf(typed, products));
  if (state.related.mode === 'chosen' && state.related.ids.length === 0)
    errors.relatedProductIds = 'Choose at least one product, or another choice above';
  if (Object.keys(errors).length) return err(errors);
  const posted = (section: MoreSection) => state.posted === undefined || state.posted.has(section);
  return ok({
    ...(posted('formId') ? { additionalFieldsFormId: state.formId || null } : {}),
    ...(posted('subscription') ? { subscription } : {}),
    ...(posted('merchandising') ? { merchandising } : {}),
    ...(posted('related') ? { relatedProductIds: related } : {}),
    ...(posted('addOns') ? { addOnProductIds: state.addOns.map((typed) => productIdOf(typed, products)) } : {}),
    ...(posted('tags')
      ? {
          tags: state.tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        }
      : {}),
    ...(posted('seo') ? { seo: { title: state.seoTitle, description: state.seoDescription } } : {}),
  });
}
