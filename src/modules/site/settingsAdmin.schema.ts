/**
 * What the settings pages and calls take and answer (issue 26, /admin/settings): staff with 'settings.read' look,
 * 'settings.edit' (admins, website managers) change; coupons also with 'coupons.edit' (store managers too). The JSON
 * calls take each setting as the site file writes it (docs/site-file.md).
 */
import { z } from 'zod';
import {
  describeRoute,
  errorAnswer,
  formBody,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';
import { CURRENCY_CODES } from '../../core/currency';
import { captchaSettingsSchema, couponSchema, promoPopupSchema, storeSettingsSchema, websiteSchema } from './schema';

export const baseVersion = z.coerce
  .number({ error: 'must be the version the form was made from (a whole number from 1)' })
  .int('must be the version the form was made from (a whole number from 1)')
  .min(1, 'must be the version the form was made from (a whole number from 1)')
  .max(2_147_483_647, 'must be the version the form was made from (a whole number from 1)');

export const settingsPageQuery = z.object({
  done: z.string().max(300).optional(),
  section: z.string().max(40).optional(),
  shipping: z.string().max(64).optional().describe('The shipping option to edit (its id)'),
  coupon: z.string().max(40).optional().describe('The coupon to edit (its code)'),
  tax: z.string().max(20).optional().describe("The tax rate to edit ('US/NY', 'GB/')"),
});

/** Any section's form: the crumb, baseVersion, op, and the section's fields (see the page). */
export const settingsSectionForm = z
  .object({ baseVersion, op: z.string().max(120).optional() })
  .catchall(z.union([z.string(), z.array(z.string())]));

export const settingsSectionParams = z.object({
  section: z.enum(['store', 'shipping', 'tax', 'coupons', 'payments', 'email', 'captcha', 'popup', 'analytics']),
});

/**
 * The settings the JSON call changes: each one present is replaced as a whole (promoPopup null: no popup); one left
 * out stays as it is (the schemas without their defaults, so that an absent setting is not read as its default).
 */
export const settingsBody = z
  .object({
    baseVersion,
    currency: z.enum(CURRENCY_CODES).optional(),
    store: storeSettingsSchema.optional(),
    captcha: captchaSettingsSchema.optional(),
    promoPopup: promoPopupSchema.nullable().optional(),
    analytics: websiteSchema.shape.analytics.unwrap().optional(),
  })
  .strict();

export const couponParams = z.object({
  code: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 letters, digits, dashes or underscores'),
});
export const couponBody = z.object({ baseVersion, coupon: couponSchema }).strict();
export const couponDeleteBody = z.object({ baseVersion }).strict();

const settingsAnswer = z.object({
  version: z.number().int().describe('The site version these are of (the next save sends it as baseVersion).'),
  settings: z.object({
    currency: z.string(),
    store: z.record(z.string(), z.unknown()),
    captcha: z.record(z.string(), z.unknown()),
    promoPopup: z.record(z.string(), z.unknown()).nullable(),
    analytics: z.record(z.string(), z.unknown()),
  }),
});

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: a role without the permission.'),
};
const saveRefusals = {
  400: errorAnswer('invalid-input: a setting is wrong (`field` names it).'),
  ...refusals,
  404: errorAnswer('version-not-found: baseVersion is not a version of this site.'),
  409: errorAnswer('site-edit-stale: changed by someone else since baseVersion (the message says what, and by whom).'),
};

export const getSettingsRoute = describeRoute({
  operationId: 'getSiteSettings',
  summary: "The site's settings, and which of the environment's settings (secrets) are set — never their values",
  tags: ['admin'],
  response: {
    200: jsonAnswer(
      'The settings.',
      settingsAnswer.extend({
        environment: z.record(z.string(), z.boolean()).describe('Each environment setting the page names: set or not.'),
        analyticsRetentionDays: z.number().int(),
      }),
    ),
    ...refusals,
  },
});

export const putSettingsRoute = describeRoute({
  operationId: 'saveSiteSettings',
  summary: 'Save settings (a new site version): each one given is replaced whole (settings.edit)',
  tags: ['admin'],
  body: settingsBody,
  response: { 200: jsonAnswer('Saved: the new version and the settings.', settingsAnswer), ...saveRefusals },
});

export const putCouponRoute = describeRoute({
  operationId: 'saveCoupon',
  summary: 'Add a coupon, or replace the one with this code (coupons.edit)',
  tags: ['admin'],
  params: couponParams,
  body: couponBody,
  response: {
    200: jsonAnswer(
      'Saved: the new version and the coupon.',
      z.object({ version: z.number().int(), coupon: z.unknown() }),
    ),
    ...saveRefusals,
  },
});

export const deleteCouponRoute = describeRoute({
  operationId: 'removeCoupon',
  summary: 'Remove a coupon (coupons.edit); orders that used it keep their discount',
  tags: ['admin'],
  params: couponParams,
  body: couponDeleteBody,
  response: {
    200: jsonAnswer('Removed: the new version.', z.object({ version: z.number().int() })),
    ...saveRefusals,
    409: errorAnswer(
      'site-edit-stale: changed by someone else since baseVersion; site-edit-refused: the site has no coupon with this code.',
    ),
  },
});

export const testEmailRoute = describeRoute({
  operationId: 'sendTestEmail',
  summary: 'Put a test e-mail to the signed-in staff member in the outbox (settings.edit)',
  tags: ['admin'],
  response: {
    200: jsonAnswer('Queued.', z.object({ to: z.string(), outboxId: z.string() })),
    ...refusals,
  },
});

export const settingsPage = pageRoute('adminSettings', 'The settings: store, shipping, tax, coupons, payments, …', {
  tags: ['admin'],
  querystring: settingsPageQuery,
  response: {
    200: htmlAnswer('The page.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without settings.read.'),
  },
});

export const settingsFormRoute = pageRoute(
  'adminSettingsSection',
  "Save a section of the settings (the section's form)",
  {
    tags: ['admin'],
    params: settingsSectionParams,
    body: formBody(settingsSectionForm),
    response: {
      303: redirectAnswer('Saved: back to the section with a notice (nobody signed in: to the sign-in).'),
      403: htmlAnswer('A role without settings.edit (coupons: coupons.edit).'),
      404: htmlAnswer('No such section.'),
      409: htmlAnswer('Changed by someone else since the form was made: the page with what changed.'),
      422: htmlAnswer('Refused: the section again with the values typed and what is wrong with each.'),
    },
  },
);
