/**
 * What the design editor's pages and calls take and answer (issue 26, /admin/design): staff with 'design.edit'
 * (admins, website managers). The JSON call takes the whole design as the site file writes it (docs/site-file.md).
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
import { designSchema } from './schema';

const baseVersion = z.coerce
  .number({ error: 'must be the version the form was made from (a whole number from 1)' })
  .int('must be the version the form was made from (a whole number from 1)')
  .min(1, 'must be the version the form was made from (a whole number from 1)')
  .max(2_147_483_647, 'must be the version the form was made from (a whole number from 1)');

export const designPageQuery = z.object({ done: z.string().max(300).optional() });

/** The look's form (no JavaScript): colours as typed (hex or HSL) or picked, fonts, button shape, logo, favicon. */
export const designLookForm = z.object({
  baseVersion,
  intent: z
    .enum(['save', 'preview'])
    .optional()
    .describe(
      "'preview': the form again with these values, nothing saved (the Preview button posts to /admin/design/preview)",
    ),
  headingFont: z.string().max(40).optional(),
  bodyFont: z.string().max(40).optional(),
  buttonShape: z.string().max(40).optional(),
  logo: z.string().max(300).optional().describe("An image of the site, or '' for the shop's name as text"),
  logoAlt: z.string().max(300).optional(),
  favicon: z.string().max(300).optional(),
  // Each colour: its text (hex or hsl()), the picker's value, and what both were when the form was made.
  background: z.string().max(60).optional(),
  backgroundPicker: z.string().max(60).optional(),
  backgroundWas: z.string().max(60).optional(),
  backgroundPickerWas: z.string().max(60).optional(),
});

/** The menu's and the footer links' forms: one operation per button. */
export const designListForm = z.object({
  baseVersion,
  op: z.string().max(120).describe("'add', 'reset', 'up:<key>', 'down:<key>' or 'remove:<key>'"),
  item: z.string().max(64).optional().describe('The menu: the page or collection to add'),
  label: z.string().max(200).optional().describe("The footer: the new link's text"),
  link: z.string().max(2100).optional().describe("The footer: the new link's address (/a-page or example.com)"),
});

export const designBody = z.object({ baseVersion, design: designSchema });

const choices = z.object({
  fonts: z.array(z.string()),
  buttonShapes: z.array(z.string()),
  images: z.array(z.string()).describe('The site images a logo or favicon may be.'),
  menuItems: z
    .array(z.object({ id: z.string(), title: z.string(), kind: z.enum(['page', 'collection']) }))
    .describe('What the menu may hold.'),
});

const designAnswer = z.object({
  version: z.number().int().describe('The site version the design is of (the next save sends it as baseVersion).'),
  design: z.record(z.string(), z.unknown()).describe('website.design as the site file writes it.'),
});

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: a role without design.edit.'),
};

export const getDesignRoute = describeRoute({
  operationId: 'getSiteDesign',
  summary: 'The site design, its version, and what it may choose from',
  tags: ['admin'],
  response: { 200: jsonAnswer('The design.', designAnswer.extend({ choices })), ...refusals },
});

export const putDesignRoute = describeRoute({
  operationId: 'saveSiteDesign',
  summary: 'Save the site design (a new site version)',
  tags: ['admin'],
  body: designBody,
  response: {
    200: jsonAnswer('Saved: the new version and the design.', designAnswer),
    400: errorAnswer(
      'invalid-input: a field of the design is wrong (`field` names it: colours refused for contrast name the pair and its ratio), or the menu names no page or collection.',
    ),
    ...refusals,
    404: errorAnswer('version-not-found: baseVersion is not a version of this site.'),
    409: errorAnswer('site-edit-stale: the design was changed by someone else since baseVersion (`lines` says what).'),
  },
});

const formAnswers = {
  303: redirectAnswer('Saved: back to /admin/design with a notice (nobody signed in: to the sign-in).'),
  403: htmlAnswer('A role without design.edit.'),
  409: htmlAnswer('Changed by someone else since the form was made: the page with what changed.'),
  422: htmlAnswer('Refused (a colour, contrast, a link): the form again with the reasons beside the fields.'),
};

export const designPage = pageRoute('adminDesign', 'The design editor', {
  tags: ['admin'],
  querystring: designPageQuery,
  response: {
    200: htmlAnswer('The page.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without design.edit.'),
  },
});

export const designLookFormRoute = pageRoute('adminDesignLook', 'Save the colours, fonts, buttons, logo, favicon', {
  tags: ['admin'],
  body: formBody(designLookForm),
  response: { 200: htmlAnswer('intent=preview: the page with the sample in these values.'), ...formAnswers },
});

export const designPreviewPage = pageRoute(
  'adminDesignPreview',
  "The storefront's home page with the stored design (the editor's frame)",
  { tags: ['admin'], response: { 200: htmlAnswer('The home page.'), 403: htmlAnswer('A role without design.edit.') } },
);

export const designPreviewFormRoute = pageRoute(
  'adminDesignPreviewForm',
  "The storefront's home page with the look's form as typed, unsaved (the editor's frame; the look form's fields)",
  {
    tags: ['admin'],
    body: formBody(designLookForm),
    response: {
      200: htmlAnswer('The home page with these colours, fonts, buttons, logo and favicon.'),
      400: htmlAnswer('A value is wrong (a colour, contrast, a choice): what to correct, in the frame.'),
      403: htmlAnswer('A role without design.edit.'),
    },
  },
);

export const designMenuFormRoute = pageRoute('adminDesignMenu', "Change the header's menu", {
  tags: ['admin'],
  body: formBody(designListForm),
  response: formAnswers,
});

export const designFooterFormRoute = pageRoute('adminDesignFooter', "Change the footer's links", {
  tags: ['admin'],
  body: formBody(designListForm),
  response: formAnswers,
});

export const designLogoFormRoute = pageRoute(
  'adminDesignLogo',
  'Upload a new logo (multipart: crumb, baseVersion, file, logoAlt)',
  {
    tags: ['admin'],
    body: {
      content: {
        'multipart/form-data': {
          schema: z.object({
            baseVersion,
            file: z.string().describe('The image'),
            logoAlt: z.string().max(250).optional(),
          }),
        },
      },
    },
    response: {
      ...formAnswers,
      400: htmlAnswer("No file ('Please enter a file name'): the page with the message."),
      413: htmlAnswer(
        "Larger than the site's upload limit: 'The file {fileName} is too large. The maximum allowed file size is {maxSize}.'",
      ),
      415: htmlAnswer('Not an image: the page with the message.'),
    },
  },
);
