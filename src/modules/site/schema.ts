/**
 * The site file: one JSON document that describes a whole website (settings, collections, products with
 * variants and stock, forms, pages with blocks, blog posts). This zod schema is the single source of the
 * file's types, its validation (`vitrine import`) and its published JSON Schema (docs/site.schema.json).
 *
 * Money in a site file is always an integer in minor units of the website's currency (2500 = $25.00 in USD,
 * 2500 = ¥2,500 in JPY), so no amount is ever a float.
 */
import { z } from 'zod';
import { ADDRESS_COUNTRIES, regionName } from '../../core/address/countries';
import { postalCodeHint } from '../../core/address/hints';
import { CURRENCY_CODES, DEFAULT_CURRENCY } from '../../core/currency';
import { NO_ANSWER_TEXT } from '../../core/forms/summary';
import { DEFAULT_LABELS, PRODUCT_MARK_LABELS } from '../../core/labels';
import {
  DEFAULT_GALLERY_DESIGN,
  GALLERY_ACTIVE_ALIGNMENTS,
  GALLERY_ASPECT_RATIOS,
  GALLERY_DESIGNS,
  GALLERY_FLAGS,
  GALLERY_LIGHTBOX_THEMES,
  GALLERY_META_POSITIONS,
  GALLERY_NUMBER_OPTIONS,
  type GalleryNumberOption,
} from '../../core/gallery';
import {
  PROMO_POPUP_DEFAULT_DELAY_SECONDS,
  PROMO_POPUP_DEFAULT_SHOW_AGAIN_DAYS,
  PROMO_POPUP_MAX_DELAY_SECONDS,
  PROMO_POPUP_MAX_SHOW_AGAIN_DAYS,
} from '../../core/promoPopup';
import {
  BUTTON_SHAPES,
  contrastProblems,
  DEFAULT_BODY_FONT,
  DEFAULT_BUTTON_SHAPE,
  DEFAULT_HEADING_FONT,
  FONT_NAMES,
} from '../../core/design';
import { DEFAULT_MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES_CEILING, MIN_UPLOAD_BYTES } from '../../core/media';
import { ADD_ONS_MAX, RELATED_PRODUCTS_DEFAULT_COUNT, RELATED_PRODUCTS_MAX } from '../../core/relatedProducts';
import { DEFAULT_SHARE_NETWORKS, SHARE_NETWORKS } from '../../core/share';
import { SOCIAL_NETWORKS } from '../../core/social';
import { isWeight, MAX_WEIGHT, WEIGHT_MESSAGE, WEIGHT_UNITS } from '../../core/weight';
import { parseVideoEmbed, VIDEO_EMBED_MESSAGES } from '../../core/videoEmbed';
import { STORED_STATUSES } from '../../core/publishing';

/** Identifiers are used in URLs and as keys: lower-case letters, digits and dashes. */
const id = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,63}$/,
    'must be 1-64 lower-case letters, digits or dashes, starting with a letter or digit',
  );
const slug = id;
const text = (max: number) => z.string().max(max);
/** A product's SEO title and description at most (what search results show, about). */
export const SEO_TITLE_MAX = 70;
export const SEO_DESCRIPTION_MAX = 320;
const minorUnits = z
  .number()
  .int('must be a whole number of minor units (cents)')
  .min(0, 'must not be negative')
  .max(999_999_999_999_999, 'must have at most 15 digits')
  .describe('Money in minor units of the website currency: a whole number (2500 = $25.00 in USD, ¥2,500 in JPY)');

export { CURRENCY_CODES };

// ---------------------------------------------------------------- website settings

export const labelsSchema = z
  .object({
    addToCart: text(60).default(DEFAULT_LABELS.addToCart),
    subscribe: text(60).default(DEFAULT_LABELS.subscribe),
    quantity: text(60).default(DEFAULT_LABELS.quantity),
    quickView: text(60).default(DEFAULT_LABELS.quickView),
    salePrice: text(60).default(DEFAULT_LABELS.salePrice),
    originalPrice: text(60).default(DEFAULT_LABELS.originalPrice),
    selectValue: text(60).default(DEFAULT_LABELS.selectValue),
    soldOut: text(60).default(PRODUCT_MARK_LABELS.soldOut),
    sale: text(60).default(PRODUCT_MARK_LABELS.sale),
  })
  .strict();

export const captchaSettingsSchema = z
  .object({
    provider: z.enum(['none', 'altcha', 'recaptcha-enterprise', 'turnstile']).default('altcha'),
    /**
     * Public site key for the third-party providers; ALTCHA needs none. Without it a reCAPTCHA Enterprise form says
     * 'Enterprise V3 ReCaptcha site key not found' (§8) and sends nothing. The secrets come from the environment.
     */
    siteKey: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, "must be the provider's site key: letters, digits, - and _")
      .optional(),
    /** reCAPTCHA Enterprise: the Google Cloud project (id or number) the site key belongs to; assessments are made there. */
    projectId: z
      .string()
      .regex(
        /^(?:[a-z][a-z0-9-]{4,28}[a-z0-9]|[0-9]{1,20})$/,
        'must be a Google Cloud project id (6-30 lower-case letters, digits, dashes) or number',
      )
      .optional(),
    /** reCAPTCHA Enterprise: the lowest score (0 a bot … 1 a person) a submission may have; default 0.5. */
    scoreThreshold: z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1').optional(),
  })
  .strict()
  .refine((c) => c.provider !== 'recaptcha-enterprise' || c.projectId !== undefined, {
    message: 'is needed with provider recaptcha-enterprise: the Google Cloud project of the site key',
    path: ['projectId'],
  });

/** Countries the checkout's address form knows (the core's address dictionary of §3). */
const countryCode = z.enum(ADDRESS_COUNTRIES, { error: `must be one of ${ADDRESS_COUNTRIES.join(', ')}` });

export const shippingOptionSchema = z
  .object({
    id,
    /** Shown to the shopper, e.g. 'Standard (3–5 days)'. */
    name: text(100).min(1),
    /** Flat rate for the whole order (minor units). */
    rate: minorUnits,
    /** The rate is 0 when the subtotal after discount is at or above this amount (minor units). */
    freeOver: minorUnits.optional(),
    /** Countries this option ships to; empty = every country the store ships to. */
    countries: z.array(countryCode).default([]),
    /**
     * With one country: the postal codes it ships to, whole or their leading part as the country's regions are given
     * (a ZIP code, a UK outcode 'SW1A', a Canadian FSA 'K1A'); absent or empty = anywhere in its country. Each is
     * checked with the spec's address hints (§5: 'ZIP Codes need to be 5 digits.', …).
     */
    postalCodes: z.array(text(12)).max(500).optional(),
  })
  .strict()
  .superRefine((option, ctx) => {
    const codes = option.postalCodes ?? [];
    if (codes.length === 0) return;
    if (option.countries.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['countries'],
        message: 'must be one country when the option names postal codes',
      });
      return;
    }
    codes.forEach((code, i) => {
      const hint = postalCodeHint(option.countries[0]!, code);
      if (hint) ctx.addIssue({ code: 'custom', path: ['postalCodes', i], message: hint });
    });
  });

export const taxRateSchema = z
  .object({
    country: countryCode,
    /** A region code of the country's list (e.g. 'NY'); absent = the whole country. A region rate wins over the country's. */
    region: text(10).optional(),
    /** Percent, up to 3 decimals (8.875 = 8.875 %). */
    rate: z
      .number()
      .min(0, 'must not be negative')
      .max(100, 'must be at most 100')
      .refine(
        (r) => Number.isInteger(Math.round(r * 1000)) && Math.abs(r * 1000 - Math.round(r * 1000)) < 1e-6,
        'must have at most 3 decimals',
      ),
    /** Name shown on the receipt, e.g. 'VAT' or 'Sales tax'. */
    name: text(60).default('Tax'),
  })
  .strict();

export const taxSettingsSchema = z
  .object({
    /** true: prices (and shipping rates) include tax, and the tax shown is the part of them that is tax (VAT style). */
    pricesIncludeTax: z.boolean().default(false),
    /** Whether shipping is taxed at the same rate. */
    taxShipping: z.boolean().default(false),
    rates: z.array(taxRateSchema).default([]),
  })
  .strict();

export const couponSchema = z
  .object({
    /** What the shopper types; matched case-insensitively. */
    code: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 letters, digits, dashes or underscores'),
    type: z.enum(['percent', 'fixed']),
    /** percent: a whole number 1–100; fixed: minor units off the subtotal. */
    amount: z.number().int('must be a whole number').min(1, 'must be at least 1'),
    /** The subtotal must be at least this (minor units). */
    minimumSubtotal: minorUnits.default(0),
    /** ISO date-times (2026-12-01T00:00:00Z); absent = no bound. */
    startsAt: z.iso.datetime({ offset: true }).optional(),
    endsAt: z.iso.datetime({ offset: true }).optional(),
    /** How many orders may use it in all; absent = no limit. */
    usageLimit: z.number().int().min(1).optional(),
    /** Each e-mail address may use it once. */
    oncePerEmail: z.boolean().default(false),
  })
  .strict()
  .refine((c) => c.type !== 'percent' || c.amount <= 100, {
    message: 'a percent coupon takes at most 100',
    path: ['amount'],
  })
  .refine((c) => !c.startsAt || !c.endsAt || Date.parse(c.startsAt) < Date.parse(c.endsAt), {
    message: 'must be after startsAt',
    path: ['endsAt'],
  });

export const paymentSettingsSchema = z
  .object({
    /**
     * test: the demo's card form (4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined; labelled as a test store).
     * manual: bank transfer or pay on pickup (orders are placed as awaiting payment). stripe: Stripe, with the keys
     * from the environment (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET).
     */
    provider: z.enum(['test', 'manual', 'stripe']).default('test'),
    /** What the shopper is told to do for a manual payment (shown on the confirmation and in the e-mail). */
    manualInstructions: text(2000).default(
      'We will e-mail you our bank details. Your order ships once payment arrives.',
    ),
  })
  .strict();

export const checkoutSettingsSchema = z
  .object({
    /** Where a copy of each new-order e-mail goes, besides the site's admins and store managers (who always get one). */
    shopEmail: z
      .string()
      .regex(/^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/, 'must be an e-mail address')
      .max(256)
      .optional(),
    /** Countries the store ships to (the address form's country list). */
    shipsTo: z.array(countryCode).min(1).default(['US']),
    shippingOptions: z.array(shippingOptionSchema).default([]),
    tax: taxSettingsSchema.default({ pricesIncludeTax: false, taxShipping: false, rates: [] }),
    coupons: z.array(couponSchema).default([]),
    payments: paymentSettingsSchema.default(paymentSettingsSchema.parse({})),
  })
  .strict()
  .superRefine((c, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const optionIds = new Set<string>();
    c.shippingOptions.forEach((o, i) => {
      if (optionIds.has(o.id)) issue(['shippingOptions', i, 'id'], `duplicate id '${o.id}'`);
      optionIds.add(o.id);
    });
    const codes = new Set<string>();
    c.coupons.forEach((coupon, i) => {
      const key = coupon.code.toUpperCase();
      if (codes.has(key))
        issue(['coupons', i, 'code'], `duplicate code '${coupon.code}' (codes are matched without regard to case)`);
      codes.add(key);
    });
    const places = new Set<string>();
    c.tax.rates.forEach((r, i) => {
      if (r.region !== undefined && regionName(r.country, r.region) === null) {
        issue(['tax', 'rates', i, 'region'], `'${r.region}' is not a region code of ${r.country}`);
      }
      const key = `${r.country}/${r.region ?? ''}`;
      if (places.has(key))
        issue(
          ['tax', 'rates', i],
          `another rate is for the same place (${r.country}${r.region ? ` ${r.region}` : ''})`,
        );
      places.add(key);
    });
  });

export const storeSettingsSchema = z
  .object({
    multipleQuantityAllowedForServices: z.boolean().default(true),
    expressCheckout: z
      .object({ enabled: z.boolean().default(false) })
      .strict()
      .default({ enabled: false }),
    /** Checkout needs at least this subtotal (minor units); 0 means no minimum. */
    minimumSubtotal: minorUnits.default(0),
    payLater: z
      .object({
        enabled: z.boolean().default(false),
        /** Prices must be above min and not above max (minor units). */
        min: minorUnits.default(100),
        max: minorUnits.default(200_000),
        accountCountry: z.enum(['US', 'CA', 'AU', 'NZ', 'GB']).default('US'),
      })
      .strict()
      .refine((p) => p.min < p.max, { message: 'min must be below max', path: ['min'] })
      .default({ enabled: false, min: 100, max: 200_000, accountCountry: 'US' }),
    checkout: checkoutSettingsSchema.default(checkoutSettingsSchema.parse({})),
    /** A counted variant with this many units or fewer (and more than 0) is low on stock (the admin's inventory). */
    lowStockThreshold: z
      .number()
      .int('must be a whole number')
      .min(0, 'must be 0 or more')
      .max(1_000_000)
      .default(5)
      .describe('A variant with this many units or fewer (above 0) shows as low on stock in the admin (default 5)'),
    /** Restock notifications (the products' `merchandising.restockNotifications` turn their sign-up form on). */
    restock: z
      .object({
        /**
         * When a variant with sign-ups comes back in stock (an import, a refund), e-mail its waiting shoppers at once — as
         * many as units, oldest first. Off: the server logs it, and the merchant sends with `vitrine restock send` or
         * the account area.
         */
        autoSend: z
          .boolean()
          .default(false)
          .describe(
            'E-mail the waiting shoppers as soon as a variant with restock sign-ups comes back in stock (as many as units, oldest first)',
          ),
      })
      .strict()
      .default({ autoSend: false }),
    /** The unit of the variants' `weight` (issue 26); absent: kg. */
    weightUnit: z
      .enum(WEIGHT_UNITS)
      .optional()
      .describe('The unit of the variants’ weights: kg (when absent), g, lb or oz'),
  })
  .strict();

export const promoPopupSchema = z
  .object({
    /** The form it holds (usually a newsletter form); its submissions carry §7's PROMO_POPUP_SUBMISSION action. */
    formId: id,
    /** The dialog's heading. */
    title: text(120).min(1),
    /** A line under the heading. */
    text: text(500).optional(),
    /** Seconds after the page loads before it opens. */
    showAfterSeconds: z
      .number()
      .int()
      .min(0)
      .max(PROMO_POPUP_MAX_DELAY_SECONDS)
      .default(PROMO_POPUP_DEFAULT_DELAY_SECONDS),
    /** Shown at most once per visitor (browser) in this many days; 0: on every page view. */
    showAgainAfterDays: z
      .number()
      .int()
      .min(0)
      .max(PROMO_POPUP_MAX_SHOW_AGAIN_DAYS)
      .default(PROMO_POPUP_DEFAULT_SHOW_AGAIN_DAYS),
  })
  .strict();

/** An https address of another website (a social profile, a video's page, an audio file). */
const httpsUrl = (example: string) =>
  z
    .string()
    .max(2083, 'must be at most 2083 characters')
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
      } catch {
        return false;
      }
    }, `must be an https address (like ${example})`);

/** The shop's social profiles (linked in every page's footer) and the networks its posts' share links offer. */
export const socialSettingsSchema = z
  .object({
    profiles: z
      .array(
        z.object({ network: z.enum(SOCIAL_NETWORKS), url: httpsUrl('https://www.instagram.com/yourshop') }).strict(),
      )
      .max(20)
      .default([]),
    /** Spec §3 shareButtonOptions: the share links under each post, in this order ([] shows none). */
    shareButtonOptions: z
      .array(z.enum(SHARE_NETWORKS))
      .max(SHARE_NETWORKS.length)
      .default([...DEFAULT_SHARE_NETWORKS]),
  })
  .strict();

/** A colour as the design writes it: '#rgb' or '#rrggbb'. */
const hexColour = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex colour like '#1f4d3a'");

/** An image file of the site (as an image block's `file`): its path relative to the site file. */
const siteImageFile = z
  .string()
  .max(300)
  .regex(
    /^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.(jpe?g|png|webp)$/,
    'must be a relative .jpg, .png or .webp path inside the site folder (like images/mug.jpg)',
  );

/**
 * The site's design (issue 26): logo, favicon, colours, fonts, button shape, the header's menu and the footer's links.
 * Everything is optional; what is left out keeps today's look (src/core/design.ts has the defaults, the font stacks
 * and the contrast rule). The storefront sets it as CSS custom properties once per page (src/ui/styles.css).
 */
export const designSchema = z
  .object({
    /** Shown in the header instead of the shop's name (absent: the name as text). */
    logo: z
      .object({
        file: siteImageFile,
        /** What the logo says (usually the shop's name): the header link's text for screen readers. */
        altText: text(250).refine((t) => t.trim() !== '', 'must say what the logo says (usually the shop’s name)'),
      })
      .strict()
      .optional(),
    /** The browser tab's icon (a square PNG of 32 × 32 px or more is best). */
    favicon: z.object({ file: siteImageFile }).strict().optional(),
    /**
     * Hex colours; a missing one keeps today's. Pairs shown together (text on background, button text on button
     * background, accent — the links' colour — on background) must have a WCAG AA contrast of 4.5:1 or more.
     */
    colours: z
      .object({
        background: hexColour.optional(),
        text: hexColour.optional(),
        /** Links, hashtags, selected options' borders; and the buttons' background unless buttonBackground is set. */
        accent: hexColour.optional(),
        buttonBackground: hexColour.optional(),
        buttonText: hexColour.optional(),
      })
      .strict()
      .superRefine((colours, ctx) => {
        for (const message of contrastProblems(colours)) ctx.addIssue({ code: 'custom', message });
      })
      .optional(),
    /**
     * A system font stack (nothing is downloaded) or a font that ships with Vitrine (served by the site itself, only
     * the chosen ones): see docs/site-file.md for what each looks like.
     */
    headingFont: z.enum(FONT_NAMES).default(DEFAULT_HEADING_FONT),
    bodyFont: z.enum(FONT_NAMES).default(DEFAULT_BODY_FONT),
    buttonShape: z.enum(BUTTON_SHAPES).default(DEFAULT_BUTTON_SHAPE),
    /**
     * The header's menu, in order: ids of pages and of product or blog collections. Absent: today's navigation (the
     * home page, the collections, then the other pages shown in navigation).
     */
    menu: z.array(id).max(30).optional(),
    /** Links in the footer, in order: to a page of the site (its id) or to another website (https). */
    footerLinks: z
      .array(
        z.union(
          [
            z.object({ label: text(60).min(1), page: id }).strict(),
            z.object({ label: text(60).min(1), url: httpsUrl('https://example.com/terms') }).strict(),
          ],
          { error: 'must be { "label": …, "page": a page id } or { "label": …, "url": an https address }' },
        ),
      )
      .max(30)
      .default([]),
  })
  .strict();

/**
 * The media library (issue 26): the largest upload the editor accepts, and the uploaded images kept in the site even
 * when nothing shows them yet (an import reads them, an export writes them; images a product, page, post or the
 * design names are kept anyway).
 */
export const mediaSettingsSchema = z
  .object({
    maxUploadBytes: z
      .number()
      .int('must be a whole number of bytes')
      .min(MIN_UPLOAD_BYTES, `must be at least ${MIN_UPLOAD_BYTES} bytes`)
      .max(MAX_UPLOAD_BYTES_CEILING, `must be at most ${MAX_UPLOAD_BYTES_CEILING} bytes (50 MB)`)
      .default(DEFAULT_MAX_UPLOAD_BYTES)
      .describe('The largest file the editor accepts for an upload, in bytes (default 10485760: 10 MB)'),
    images: z
      .array(siteImageFile)
      .max(5000)
      .default([])
      .describe('Images of the media library, kept even when no product, page, post or design setting shows them'),
  })
  .strict();

export const websiteSchema = z
  .object({
    id,
    title: text(200).min(1),
    /** Host names this site answers to. The default site also answers to localhost and unknown hosts. */
    domains: z.array(z.string().regex(/^[a-z0-9.-]+(:\d{1,5})?$/, 'must be a lower-case host name')).default([]),
    default: z.boolean().default(false),
    currency: z.enum(CURRENCY_CODES).default(DEFAULT_CURRENCY),
    timeZone: text(64).default('America/New_York'),
    locale: z
      .string()
      .regex(/^[a-z]{2}(-[A-Z]{2})?$/, "must look like 'en' or 'en-US'")
      .default('en-US'),
    labels: labelsSchema.default(labelsSchema.parse({})),
    captcha: captchaSettingsSchema.default({ provider: 'altcha' }),
    store: storeSettingsSchema.default(storeSettingsSchema.parse({})),
    comments: z
      .object({ commentsEnabled: z.boolean().default(true), simpleLikingEnabled: z.boolean().default(false) })
      .strict()
      .default({ commentsEnabled: true, simpleLikingEnabled: false }),
    social: socialSettingsSchema.default(socialSettingsSchema.parse({})),
    /** Visitor census (spec §4): the cookie-consent setting, and whether the site is a cloneable template. */
    analytics: z
      .object({
        /**
         * 'required': the page asks for consent (a banner) and, until the visitor accepts, uses a fresh visitor id
         * per page and deletes the tracking cookies. 'not-required' (default): the census cookies are used at once.
         */
        cookieConsent: z.enum(['not-required', 'required']).default('not-required'),
        /** A cloneable (template) site never keeps a visitor id. */
        cloneable: z.boolean().default(false),
      })
      .strict()
      .default({ cookieConsent: 'not-required', cloneable: false }),
    /** The promo popup: a modal holding a form, shown on every page but the cart and checkout (src/core/promoPopup.ts). */
    promoPopup: promoPopupSchema.optional(),
    /** The site's design: logo, favicon, colours, fonts, buttons, menu and footer links (absent: today's look). */
    design: designSchema.optional(),
    /** The media library: the upload size limit and the uploaded images (absent: 10 MB, none kept unused). */
    media: mediaSettingsSchema.optional(),
  })
  .strict();

// ---------------------------------------------------------------- editor statuses (issue 26)

/**
 * A page's, post's or product's editor status (spec §4; src/core/publishing.ts): absent, it is published; 'draft' and
 * 'needs-review' keep it off the storefront; 'scheduled' puts it there at `publishAt` by itself.
 */
const publicationShape = {
  status: z
    .enum(STORED_STATUSES, {
      error: "must be 'draft', 'scheduled' or 'needs-review' (leave status out for a published one)",
    })
    .optional()
    .describe(
      "Editor status: absent = published; 'draft' and 'needs-review' are not on the storefront (staff preview them); 'scheduled' goes live at publishAt",
    ),
  publishAt: z.iso
    .datetime({ offset: true, error: 'must be a date and time like 2026-06-01T10:00:00-04:00' })
    .optional()
    .describe("With status 'scheduled': when it goes live (a date and time with its offset)"),
};

/** A scheduled thing says when; nothing else has a publish time. */
function checkPublication(
  thing: { status?: string | undefined; publishAt?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (thing.status === 'scheduled' && thing.publishAt === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['publishAt'],
      message: "is needed with status 'scheduled': when it goes live",
    });
  if (thing.status !== 'scheduled' && thing.publishAt !== undefined)
    ctx.addIssue({ code: 'custom', path: ['publishAt'], message: "is only for status 'scheduled' (leave it out)" });
}

// ---------------------------------------------------------------- collections, products, variants

export const collectionSchema = z
  .object({
    id,
    /** 'products' is collection type 13, 'blog' a blog, 'page' a plain page collection. */
    type: z.enum(['products', 'blog', 'page']),
    title: text(200).min(1),
    slug,
  })
  .strict();

export const stockSchema = z.union(
  [
    z.object({ unlimited: z.literal(true) }).strict(),
    z.object({ qtyInStock: z.number().int().min(0).max(1_000_000_000) }).strict(),
  ],
  { error: 'must be { "unlimited": true } or { "qtyInStock": a whole number from 0 to 1000000000 }' },
);

export const variantSchema = z
  .object({
    sku: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, dots, dashes or underscores'),
    /** Option name → value, one entry per variant option of the product. */
    attributes: z.record(z.string(), text(100)).default({}),
    price: minorUnits,
    salePrice: minorUnits.optional(),
    onSale: z.boolean().default(false),
    stock: stockSchema,
    /** In the store's unit (`website.store.weightUnit`, kg when absent): for shipping; the storefront shows it nowhere. */
    weight: z
      .number()
      .refine(isWeight, WEIGHT_MESSAGE)
      .optional()
      .describe(
        `The variant's weight in the store's unit (website.store.weightUnit; kg when absent), 0 to ${MAX_WEIGHT}, at most 3 decimals: for shipping; not shown on the storefront`,
      ),
  })
  .strict();

export const imageSchema = z
  .object({
    /** Path of the image file relative to the site file. */
    file: siteImageFile,
    altText: text(250).default(''),
    focalPoint: z
      .object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) })
      .strict()
      .default({ x: 0.5, y: 0.5 }),
  })
  .strict();

/**
 * A product's image: an image, and the option values it pictures (`{ "Color": "Slate" }`): the variants with those
 * values show it as the page's main image when the shopper chooses them (src/core/variant.ts `variantImageIndex`).
 */
export const productImageSchema = imageSchema
  .extend({
    attributes: z
      .record(z.string(), text(100))
      .optional()
      .describe(
        'The option values this image pictures, e.g. { "Color": "Slate" }: shown as the main image when the shopper chooses them',
      ),
  })
  .strict();

export const billingUnitSchema = z.enum(['WEEK', 'MONTH', 'YEAR']);

export const subscriptionSchema = z
  .object({
    billingPeriod: z.object({ value: z.number().int().min(1).max(52), unit: billingUnitSchema }).strict(),
    /** 0 = until cancelled. */
    numBillingCycles: z.number().int().min(0).max(1000).default(0),
    options: z
      .array(
        z
          .object({
            id,
            price: minorUnits,
            salePrice: minorUnits.optional(),
            onSale: z.boolean().default(false),
            additionalFieldsFormId: id.optional(),
            customAddButtonText: text(60).optional(),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

export const merchandisingSchema = z
  .object({
    restockNotifications: z
      .object({
        enabled: z.boolean().default(false),
        message: text(500).optional(),
        successMessage: text(500).optional(),
        mailingListSignUpEnabled: z.boolean().default(false),
        mailingListOptInByDefault: z.boolean().default(false),
        hiddenByDefault: z.boolean().default(false),
      })
      .strict()
      .default({
        enabled: false,
        mailingListSignUpEnabled: false,
        mailingListOptInByDefault: false,
        hiddenByDefault: false,
      }),
    scarcity: z
      .object({
        enabled: z.boolean().default(false),
        /** Template with {qty}, e.g. 'Only {qty} left in stock'. */
        text: text(200).default('Only {qty} left in stock'),
        shownByDefault: z.boolean().default(true),
        /** Show the text when stock is at or below this number. */
        threshold: z.number().int().min(1).max(1000).default(3),
      })
      .strict()
      .default({ enabled: false, text: 'Only {qty} left in stock', shownByDefault: true, threshold: 3 }),
    customSoldOutText: text(60).optional(),
  })
  .strict();

/** A product page's title and meta description for search engines (issue 26); each absent: the product's own. */
export const productSeoSchema = z
  .object({
    title: text(SEO_TITLE_MAX)
      .refine((t) => t.trim() !== '', 'must not be empty (leave it out for the product’s name)')
      .optional()
      .describe(
        `The page's <title> (at most ${SEO_TITLE_MAX} characters), followed by ' — {site title}' unless it names the site; absent: the product's name`,
      ),
    description: text(SEO_DESCRIPTION_MAX)
      .refine((t) => t.trim() !== '', 'must not be empty (leave it out for the product’s description)')
      .optional()
      .describe(
        `The page's meta description (at most ${SEO_DESCRIPTION_MAX} characters); absent: the product's description`,
      ),
  })
  .strict();

export const productSchema = z
  .object({
    id,
    collectionId: id,
    slug,
    name: text(200).min(1),
    description: text(20_000).default(''),
    /** physical 1, digital 2, service 3, gift card 4, paywall 5 */
    productType: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
    /** Variant options in display order, each with its values in display order. */
    variantOptions: z
      .array(z.object({ name: text(60).min(1), values: z.array(text(100).min(1)).min(1) }).strict())
      .max(6)
      .default([]),
    variants: z.array(variantSchema).min(1, 'a product needs at least one variant'),
    images: z.array(productImageSchema).default([]),
    /** Digital products carry their own sale flag (§4). */
    onSale: z.boolean().default(false),
    subscription: subscriptionSchema.optional(),
    additionalFieldsFormId: id.optional(),
    merchandising: merchandisingSchema.default(merchandisingSchema.parse({})),
    /** Spec §3 audioAssetUrl: the product page shows an audio player for it (loaded only when played). */
    audio: z
      .object({
        url: httpsUrl('https://media.example.com/sample.mp3'),
        title: text(200).optional(),
        /** What is said in it, for visitors who cannot hear it (shown under the player). */
        transcript: text(20_000).optional(),
      })
      .strict()
      .optional(),
    tags: z.array(text(60)).default([]),
    /** Products offered beside the buying area with a compact add button (src/core/relatedProducts.ts). */
    addOnProductIds: z
      .array(id)
      .max(ADD_ONS_MAX, `must name at most ${ADD_ONS_MAX} add-ons`)
      .optional()
      .describe(
        `Add-on products shown under the buying area (at most ${ADD_ONS_MAX}): ids of other products of this site`,
      ),
    /** The "You may also like" products; absent: the next products of its collection. */
    relatedProductIds: z
      .array(id)
      .max(RELATED_PRODUCTS_MAX, `must name at most ${RELATED_PRODUCTS_MAX} related products`)
      .optional()
      .describe(
        `Related products shown under the product page (at most ${RELATED_PRODUCTS_MAX}): ids of other products of this site; when absent, the next ${RELATED_PRODUCTS_DEFAULT_COUNT} products of its collection in stock; [] shows none`,
      ),
    /** What search engines and the browser's tab show of the product page (absent: its name and description). */
    seo: productSeoSchema.optional(),
    ...publicationShape,
  })
  .strict()
  .superRefine(checkPublication);

// ---------------------------------------------------------------- forms

const fieldBase = {
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, dashes or underscores'),
  title: text(200).min(1),
  description: text(1000).optional(),
  required: z.boolean().default(false),
};

export const formFieldSchema = z.discriminatedUnion('kind', [
  z
    .object({
      ...fieldBase,
      kind: z.literal('text'),
      placeholder: text(200).optional(),
      maxLength: z.number().int().min(0).max(100_000).optional(),
    })
    .strict(),
  z
    .object({ ...fieldBase, kind: z.literal('textarea'), maxLength: z.number().int().min(0).max(100_000).optional() })
    .strict(),
  z.object({ ...fieldBase, kind: z.literal('email') }).strict(),
  z.object({ ...fieldBase, kind: z.literal('url') }).strict(),
  z.object({ ...fieldBase, kind: z.literal('number') }).strict(),
  z.object({ ...fieldBase, kind: z.literal('date') }).strict(),
  z.object({ ...fieldBase, kind: z.literal('time') }).strict(),
  z.object({ ...fieldBase, kind: z.literal('name') }).strict(),
  z.object({ ...fieldBase, kind: z.literal('address') }).strict(),
  z.object({ ...fieldBase, kind: z.literal('phone'), showCountryCode: z.boolean().default(false) }).strict(),
  z.object({ ...fieldBase, kind: z.literal('checkbox'), options: z.array(text(200).min(1)).min(1) }).strict(),
  z.object({ ...fieldBase, kind: z.literal('radio'), options: z.array(text(200).min(1)).min(1) }).strict(),
  z.object({ ...fieldBase, kind: z.literal('select'), options: z.array(text(200).min(1)).min(1) }).strict(),
  z
    .object({
      ...fieldBase,
      kind: z.literal('likert'),
      questions: z.array(text(200).min(1)).min(1),
    })
    .strict(),
  z.object({ ...fieldBase, kind: z.literal('hidden'), value: text(1000).default('') }).strict(),
]);

export const formSchema = z
  .object({
    id,
    name: text(200).min(1),
    fields: z.array(formFieldSchema).min(1),
    submitLabel: text(60).default('Submit'),
    submissionMessage: text(2000).default('Thank you!'),
    submissionHtml: text(20_000).optional(),
    // One slash, then the path: '//host' and '/\host' are other sites to a browser (which also drops tabs and newlines).
    successRedirect: z
      .string()
      .regex(
        /^\/(?![/\\])[^\t\n\r]*$/,
        'must be a path of this site: one / and the path (not //host, /\\host or a full URL)',
      )
      .optional(),
    disclaimer: text(2000).optional(),
    captcha: z.boolean().default(false),
    /**
     * 'newsletter': the first e-mail field's address joins the site's mailing list (double opt-in: a confirmation
     * e-mail); no errors are shown around the form (§8). 'form': a contact form; submissions are e-mailed to the shop.
     * 'waitlist': a product waitlist (a `productWaitlist` block names it and the product): the first e-mail field's
     * address is signed up once per product (or per form, without one), stored as a submission and e-mailed to the shop.
     */
    kind: z.enum(['form', 'newsletter', 'waitlist']).default('form'),
    noAnswerText: text(60).default(NO_ANSWER_TEXT),
  })
  .strict();

// ---------------------------------------------------------------- pages, blocks, posts

/** A gallery's image: an image with the optional title and description its captions (§3 "meta") show. */
export const galleryImageSchema = imageSchema
  .extend({ title: text(200).optional(), description: text(1000).optional() })
  .strict();

/** A §9 gallery number: its range and default from the core (src/core/gallery.ts); pixels and counts are whole. */
const galleryNumber = (option: GalleryNumberOption) => {
  const { min, max, default: fallback } = GALLERY_NUMBER_OPTIONS[option];
  const number = option === 'autoplayDelay' ? z.number() : z.number().int('must be a whole number');
  return number.min(min, `must be at least ${min}`).max(max, `must be at most ${max}`).default(fallback);
};

/** The gallery block (§3 gallery options, §9 gallery defaults); docs/site-file.md says what each option does. */
export const galleryBlockSchema = z
  .object({
    type: z.literal('gallery'),
    images: z.array(galleryImageSchema).min(1, 'must list at least one image').max(100),
    /** §3 says 'slider', §9 'carousel': both are read (as 'slider'). */
    design: z.enum([...GALLERY_DESIGNS, 'carousel']).default(DEFAULT_GALLERY_DESIGN),
    /** The accessible name of the gallery (slideshows and sliders are regions named by it). */
    label: text(100).min(1).optional(),
    flags: z.array(z.enum(GALLERY_FLAGS)).default(['controls', 'lightbox']),
    /** Cropped to this ratio around each image's focal point; absent: each image keeps its own shape. */
    aspectRatio: z.enum(GALLERY_ASPECT_RATIOS).optional(),
    lightboxTheme: z.enum(GALLERY_LIGHTBOX_THEMES).default('dark'),
    metaPosition: z.enum(GALLERY_META_POSITIONS).default('bottom-left'),
    activeAlignment: z.enum(GALLERY_ACTIVE_ALIGNMENTS).default('center'),
    autoplayDelay: galleryNumber('autoplayDelay'),
    thumbnailStripHeight: galleryNumber('thumbnailStripHeight'),
    margin: galleryNumber('margin'),
    thumbnailsPerRow: galleryNumber('thumbnailsPerRow'),
    padding: galleryNumber('padding'),
    maxWidth: galleryNumber('maxWidth'),
  })
  .strict();

/** Spec §3 Video: the provider's oEmbed HTML, shown as its overlay image until played (src/core/videoEmbed.ts). */
export const videoBlockSchema = z
  .object({
    type: z.literal('video'),
    /** The video's page at the provider: where the overlay links without JavaScript. */
    url: httpsUrl('https://www.youtube.com/watch?v=…'),
    /** What the video is: the play button's name ('Play video: {title}') and the player frame's title. */
    title: text(200).min(1),
    oembed: z
      .object({
        html: z.string().superRefine((html, ctx) => {
          const embed = parseVideoEmbed(html);
          if (!embed.ok) ctx.addIssue({ code: 'custom', message: VIDEO_EMBED_MESSAGES[embed.error] });
        }),
        providerName: text(100).optional(),
      })
      .strict(),
    overlay: imageSchema,
  })
  .strict();

export const blockSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('heading'),
      text: text(200).min(1),
      level: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(2),
    })
    .strict(),
  z.object({ type: z.literal('text'), text: text(20_000) }).strict(),
  z.object({ type: z.literal('image'), image: imageSchema, link: z.string().startsWith('/').optional() }).strict(),
  z
    .object({
      type: z.literal('productGrid'),
      collectionId: id,
      /** Show at most this many products (all when absent). */
      limit: z.number().int().min(1).max(100).optional(),
    })
    .strict(),
  z.object({ type: z.literal('product'), productId: id }).strict(),
  z.object({ type: z.literal('form'), formId: id }).strict(),
  /** A product waitlist: a form of kind 'waitlist' and, optionally, the product that is coming (§7 PRODUCT_WAITLIST_SUBMISSION). */
  z.object({ type: z.literal('productWaitlist'), formId: id, productId: id.optional() }).strict(),
  z.object({ type: z.literal('posts'), collectionId: id, limit: z.number().int().min(1).max(50).default(3) }).strict(),
  videoBlockSchema,
  galleryBlockSchema,
]);

export const pageSchema = z
  .object({
    id,
    /** Site path, '/' for the home page. */
    path: z.string().regex(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/, "must be '/' or a path like '/about'"),
    title: text(200).min(1),
    /** Numeric page type of spec §2 (page 2 for ordinary pages). */
    pageType: z.number().int().min(1).max(400).default(2),
    showInNavigation: z.boolean().default(true),
    blocks: z.array(blockSchema).default([]),
    /**
     * Locks the page (lock screen 103 until the visitor types it; then protected content 105): the password as
     * written, or better its scrypt hash ('scrypt$…', as `npx tsx scripts/hash-page-password.ts` prints). Never shown on a page.
     */
    password: z
      .string()
      .max(256)
      .refine((p) => p.trim() !== '', 'must not be empty (leave `password` out for a page open to everyone)')
      .refine(
        (p) => !p.startsWith('scrypt$') || /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]{43}$/.test(p),
        "is not a whole scrypt hash ('scrypt$N$r$p$salt$key')",
      )
      .optional(),
    ...publicationShape,
  })
  .strict()
  .superRefine((page, ctx) => {
    checkPublication(page, ctx);
    // The site's address answers always: a home page that is not live would leave the site with no front door.
    if (page.path === '/' && page.status !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['status'],
        message: 'the home page (/) is always published: leave status out',
      });
  });

export const postSchema = z
  .object({
    id,
    collectionId: id,
    slug,
    title: text(200).min(1),
    author: text(100).default(''),
    publishedOn: z.iso.date('must be a date like 2026-05-31'),
    excerpt: text(1000).default(''),
    body: text(100_000).default(''),
    image: imageSchema.optional(),
    tags: z.array(text(60)).default([]),
    categories: z.array(text(60)).default([]),
    /** 1 = comments enabled. */
    commentState: z.number().int().min(0).max(2).default(0),
    /** Public comments so far (the comment link's label: 'No Comments', '1 Comment', 'N Comments'). */
    publicCommentCount: z.number().int().min(0).max(1_000_000_000).default(0),
    /** An event post (spec §3 startDate, endDate, location): its dates show in the site's time zone. */
    event: z
      .object({
        start: z.iso.datetime({ offset: true, error: 'must be a date and time like 2026-06-13T10:00:00-04:00' }),
        end: z.iso
          .datetime({ offset: true, error: 'must be a date and time like 2026-06-13T16:00:00-04:00' })
          .optional(),
        /** Dates only, no times. */
        allDay: z.boolean().default(false),
        location: z
          .object({
            addressLine1: text(200).optional(),
            addressLine2: text(200).optional(),
            addressCountry: text(100).optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .refine((event) => event.end === undefined || Date.parse(event.end) >= Date.parse(event.start), {
        message: 'must not end before it starts',
        path: ['end'],
      })
      .optional(),
    ...publicationShape,
  })
  .strict()
  .superRefine(checkPublication);

// ---------------------------------------------------------------- the whole file

export const SITE_FILE_VERSION = 1;

const siteFileObject = z
  .object({
    $schema: z.string().optional(),
    version: z.literal(SITE_FILE_VERSION),
    website: websiteSchema,
    collections: z.array(collectionSchema).default([]),
    products: z.array(productSchema).default([]),
    forms: z.array(formSchema).default([]),
    pages: z.array(pageSchema).default([]),
    posts: z.array(postSchema).default([]),
  })
  .strict();

export const siteFileSchema = siteFileObject.superRefine((site, ctx) =>
  checkReferences(site, (path, message) => ctx.addIssue({ code: 'custom', path, message })),
);
/** The site file's shape without the cross-record checks (see `checkReferences`). */
export const siteFileShape = siteFileObject;

export type SiteFile = z.output<typeof siteFileObject>;
export type SiteFileInput = z.input<typeof siteFileObject>;
export type Website = z.output<typeof websiteSchema>;
export type MediaSettings = z.output<typeof mediaSettingsSchema>;
export type PromoPopup = z.output<typeof promoPopupSchema>;
export type CheckoutSettings = z.output<typeof checkoutSettingsSchema>;
export type ShippingOption = z.output<typeof shippingOptionSchema>;
export type TaxSettings = z.output<typeof taxSettingsSchema>;
export type TaxRate = z.output<typeof taxRateSchema>;
export type Coupon = z.output<typeof couponSchema>;
export type PaymentSettings = z.output<typeof paymentSettingsSchema>;
export type Collection = z.output<typeof collectionSchema>;
export type Product = z.output<typeof productSchema>;
export type Variant = z.output<typeof variantSchema>;
export type ProductSeo = z.output<typeof productSeoSchema>;
export type Stock = z.output<typeof stockSchema>;
export type Image = z.output<typeof imageSchema>;
export type Form = z.output<typeof formSchema>;
export type FormField = z.output<typeof formFieldSchema>;
export type Page = z.output<typeof pageSchema>;
export type Block = z.output<typeof blockSchema>;
export type GalleryBlock = z.output<typeof galleryBlockSchema>;
export type GalleryImage = z.output<typeof galleryImageSchema>;
export type Post = z.output<typeof postSchema>;

/**
 * A site file's records, possibly incomplete: a record that failed its own schema is `undefined` at its index, and its
 * id (when it has one) is listed in `unparsedIds`, so a reference to it is not reported as missing.
 */
export interface SiteParts {
  collections: (Collection | undefined)[];
  products: (Product | undefined)[];
  forms: (Form | undefined)[];
  pages: (Page | undefined)[];
  posts: (Post | undefined)[];
  unparsedIds?: { collections: Set<string>; products: Set<string>; forms: Set<string> };
  /** The website's settings that name records (the promo popup's form), when they parsed. */
  website?:
    | {
        promoPopup?: { formId: string } | undefined;
        design?: { menu?: string[] | undefined; footerLinks: ({ page: string } | { url: string })[] } | undefined;
      }
    | undefined;
}

export type IssueSink = (path: (string | number)[], message: string) => void;

/** Cross-record rules a per-field schema cannot express: unique ids and references that resolve. */
export function checkReferences(s: SiteParts, issue: IssueSink): void {
  const unparsed = s.unparsedIds ?? {
    collections: new Set<string>(),
    products: new Set<string>(),
    forms: new Set<string>(),
  };
  const unique = <T>(list: (T | undefined)[], key: (item: T) => string, listName: string, keyName: string) => {
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (item === undefined) return;
      const k = key(item);
      if (seen.has(k)) issue([listName, i, keyName], `duplicate ${keyName} '${k}'`);
      seen.add(k);
    });
    return seen;
  };
  const collectionIds = unique(s.collections, (c) => c.id, 'collections', 'id');
  unique(s.collections, (c) => c.slug, 'collections', 'slug');
  const productIds = unique(s.products, (p) => p.id, 'products', 'id');
  const formIds = unique(s.forms, (f) => f.id, 'forms', 'id');
  unique(s.pages, (p) => p.id, 'pages', 'id');
  unique(s.pages, (p) => p.path, 'pages', 'path');
  unique(s.posts, (p) => p.id, 'posts', 'id');
  const collectionType = new Map(s.collections.flatMap((c) => (c ? [[c.id, c.type] as const] : [])));
  const formExists = (id: string) => formIds.has(id) || unparsed.forms.has(id);
  const collectionIs = (id: string, type: Collection['type']) =>
    collectionType.get(id) === type || unparsed.collections.has(id);

  const skus = new Set<string>();
  const productSlugs = new Set<string>();
  s.products.forEach((product, p) => {
    if (product === undefined) return;
    const at = ['products', p];
    const slugKey = `${product.collectionId}/${product.slug}`;
    if (productSlugs.has(slugKey))
      issue([...at, 'slug'], `duplicate slug '${product.slug}' in collection '${product.collectionId}'`);
    productSlugs.add(slugKey);
    if (!collectionIs(product.collectionId, 'products')) {
      issue([...at, 'collectionId'], `'${product.collectionId}' is not a products collection of this site`);
    }
    if (product.additionalFieldsFormId && !formExists(product.additionalFieldsFormId)) {
      issue([...at, 'additionalFieldsFormId'], `form '${product.additionalFieldsFormId}' does not exist`);
    }
    product.subscription?.options.forEach((option, o) => {
      if (option.additionalFieldsFormId && !formExists(option.additionalFieldsFormId)) {
        issue(
          [...at, 'subscription', 'options', o, 'additionalFieldsFormId'],
          `form '${option.additionalFieldsFormId}' does not exist`,
        );
      }
    });
    const optionNames = new Set<string>();
    product.variantOptions.forEach((option, o) => {
      if (optionNames.has(option.name))
        issue([...at, 'variantOptions', o, 'name'], `duplicate option '${option.name}'`);
      optionNames.add(option.name);
    });
    const combinations = new Set<string>();
    product.variants.forEach((variant, v) => {
      const vat = [...at, 'variants', v];
      if (skus.has(variant.sku)) issue([...vat, 'sku'], `duplicate sku '${variant.sku}'`);
      skus.add(variant.sku);
      if (variant.salePrice !== undefined && variant.salePrice > variant.price) {
        issue([...vat, 'salePrice'], 'must not be above price');
      }
      const names = Object.keys(variant.attributes);
      if (names.length !== product.variantOptions.length || names.some((n) => !optionNames.has(n))) {
        issue(
          [...vat, 'attributes'],
          `must give exactly one value for each variant option (${[...optionNames].join(', ') || 'none'})`,
        );
        return;
      }
      for (const option of product.variantOptions) {
        const value = variant.attributes[option.name] ?? '';
        if (!option.values.includes(value)) {
          issue([...vat, 'attributes', option.name], `'${value}' is not a value of option '${option.name}'`);
        }
      }
      const combination = JSON.stringify(product.variantOptions.map((o) => variant.attributes[o.name]));
      if (combinations.has(combination)) issue([...vat, 'attributes'], 'another variant has the same option values');
      combinations.add(combination);
    });
    product.images.forEach((image, i) => {
      for (const [name, value] of Object.entries(image.attributes ?? {})) {
        const option = product.variantOptions.find((o) => o.name === name);
        if (!option)
          issue([...at, 'images', i, 'attributes', name], `'${name}' is not a variant option of this product`);
        else if (!option.values.includes(value))
          issue([...at, 'images', i, 'attributes', name], `'${value}' is not a value of option '${name}'`);
      }
    });
    for (const list of ['addOnProductIds', 'relatedProductIds'] as const) {
      const named = new Set<string>();
      product[list]?.forEach((other, i) => {
        const what = list === 'addOnProductIds' ? 'add-on' : 'related product';
        if (other === product.id) issue([...at, list, i], `a product cannot be its own ${what}`);
        else if (named.has(other)) issue([...at, list, i], `${what} '${other}' is named twice`);
        else if (!productIds.has(other) && !unparsed.products.has(other))
          issue([...at, list, i], `product '${other}' does not exist`);
        named.add(other);
      });
    }
    if (product.productType === 4 && product.variants.some((v) => 'qtyInStock' in v.stock)) {
      // Gift cards count as unlimited (§5); a stock figure would be ignored, so refuse it rather than mislead.
      issue([...at, 'variants'], 'gift card variants must have unlimited stock');
    }
  });

  const collectionSlugs = new Set(s.collections.flatMap((c) => (c ? [c.slug] : [])));
  s.pages.forEach((page, p) => {
    const first = page?.path.split('/')[1];
    if (first !== undefined && collectionSlugs.has(first)) {
      issue(['pages', p, 'path'], `'${page?.path}' collides with collection '/${first}'`);
    }
  });
  s.pages.forEach((page, p) =>
    page?.blocks.forEach((block, b) => {
      const at = ['pages', p, 'blocks', b];
      if (block.type === 'productGrid' || block.type === 'posts') {
        const wanted = block.type === 'productGrid' ? 'products' : 'blog';
        if (!collectionIds.has(block.collectionId) && !unparsed.collections.has(block.collectionId)) {
          issue([...at, 'collectionId'], `collection '${block.collectionId}' does not exist`);
        } else if (!collectionIs(block.collectionId, wanted)) {
          issue([...at, 'collectionId'], `collection '${block.collectionId}' is not a ${wanted} collection`);
        }
      }
      if (block.type === 'product' && !productIds.has(block.productId) && !unparsed.products.has(block.productId)) {
        issue([...at, 'productId'], `product '${block.productId}' does not exist`);
      }
      if (block.type === 'form' && !formExists(block.formId))
        issue([...at, 'formId'], `form '${block.formId}' does not exist`);
      if (block.type === 'productWaitlist') {
        const kind = s.forms.find((f) => f?.id === block.formId)?.kind;
        if (!formExists(block.formId)) issue([...at, 'formId'], `form '${block.formId}' does not exist`);
        else if (kind !== undefined && kind !== 'waitlist')
          issue([...at, 'formId'], `form '${block.formId}' is not a waitlist form (its kind must be 'waitlist')`);
        if (
          block.productId !== undefined &&
          !productIds.has(block.productId) &&
          !unparsed.products.has(block.productId)
        ) {
          issue([...at, 'productId'], `product '${block.productId}' does not exist`);
        }
      }
    }),
  );
  s.forms.forEach((form, f) => {
    // The sign-up is its e-mail address: without one required e-mail field there is nothing to sign up.
    if (form?.kind === 'waitlist' && !form.fields.some((field) => field.kind === 'email' && field.required)) {
      issue(['forms', f, 'fields'], "a waitlist form needs a required field of kind 'email' (the address signed up)");
    }
  });
  const popupFormId = s.website?.promoPopup?.formId;
  if (popupFormId !== undefined && !formExists(popupFormId))
    issue(['website', 'promoPopup', 'formId'], `form '${popupFormId}' does not exist`);
  // The design's menu names pages and product or blog collections; its footer links name pages.
  const design = s.website?.design;
  const pageIds = new Set(s.pages.flatMap((p) => (p ? [p.id] : [])));
  const menuSeen = new Set<string>();
  design?.menu?.forEach((entry, i) => {
    const at = ['website', 'design', 'menu', i];
    if (menuSeen.has(entry)) issue(at, `'${entry}' is already in the menu`);
    menuSeen.add(entry);
    const kind = collectionType.get(entry);
    if (pageIds.has(entry) && kind !== undefined && kind !== 'page')
      issue(at, `'${entry}' is both a page and a collection: give one of them another id`);
    else if (!pageIds.has(entry) && !(kind === 'products' || kind === 'blog'))
      issue(at, `'${entry}' is not a page or a product or blog collection of this site`);
  });
  design?.footerLinks.forEach((link, i) => {
    if ('page' in link && !pageIds.has(link.page))
      issue(['website', 'design', 'footerLinks', i, 'page'], `'${link.page}' is not a page of this site`);
  });
  s.posts.forEach((post, p) => {
    if (post && !collectionIs(post.collectionId, 'blog')) {
      issue(['posts', p, 'collectionId'], `'${post.collectionId}' is not a blog collection of this site`);
    }
  });
}
