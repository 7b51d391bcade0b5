/**
 * What the media library's pages and calls take and answer (issue 26, /admin/media): staff with 'media.read' look,
 * 'media.edit' (admin, store manager, website manager) upload and delete.
 */
import { z } from 'zod';
import {
  component,
  describeRoute,
  errorAnswer,
  htmlAnswer,
  jsonAnswer,
  pageRoute,
  redirectAnswer,
} from '../../platform/http/apiDescription';

export const mediaPageQuery = z.object({ done: z.string().max(300).optional() });

export const uploadQuery = z.object({
  fileName: z
    .string({ error: 'must be the file’s name' })
    .max(200, 'must be at most 200 characters')
    .describe("The file's name (its stem names the stored image: 'Blue Mug.png' → images/blue-mug.png)."),
});

const imagePath = z
  .string({ error: 'must be the path of an image of the site (images/mug.png)' })
  .min(1, 'must be the path of an image of the site (images/mug.png)')
  .max(300, 'must be at most 300 characters');

export const imageQuery = z.object({ path: imagePath });
export const deleteFormBody = z.object({ path: imagePath });

const imageUse = z.object({
  kind: z.enum(['product', 'page', 'post', 'design']),
  id: z.string(),
  name: z.string(),
});

const mediaImage = component(
  'MediaImage',
  z.object({
    path: z.string().describe('Its path in the site (as the site file names it).'),
    contentType: z.enum(['image/jpeg', 'image/png', 'image/webp']),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int(),
    usedBy: z.array(imageUse).describe('The products, pages, posts and design settings that show it.'),
  }),
  'An image of the site.',
);

const refusals = {
  401: errorAnswer("sign-in-required: 'Please sign in to your account to do this.'"),
  403: errorAnswer('role-not-allowed: a role without media.read (media.edit to change).'),
};

export const listMediaRoute = describeRoute({
  operationId: 'listMedia',
  summary: "The site's images, newest uploads first, each with where it is shown",
  tags: ['admin'],
  response: {
    200: jsonAnswer(
      'The images, the upload limit and the site version they are from.',
      z.object({
        images: z.array(mediaImage),
        maxUploadBytes: z.number().int(),
        version: z.number().int(),
      }),
    ),
    ...refusals,
  },
});

export const uploadMediaRoute = describeRoute({
  operationId: 'uploadMedia',
  summary:
    'Upload an image: the body is the file (Content-Type application/octet-stream or image/*); its type is read from the bytes, it is re-encoded without EXIF and saved as a new site version',
  tags: ['admin'],
  querystring: uploadQuery,
  response: {
    201: jsonAnswer(
      'Stored: the image and the site version the upload made.',
      z.object({ image: mediaImage, version: z.number().int() }),
    ),
    400: errorAnswer(
      "invalid-input: 'Please enter a file name' (no fileName); 'There was a problem while uploading your file.' (no bytes).",
    ),
    ...refusals,
    413: errorAnswer(
      "payload-too-large: 'The file {fileName} is too large. The maximum allowed file size is {maxSize}.' (the site's website.media.maxUploadBytes, 10 MB by default).",
    ),
    415: errorAnswer(
      "unsupported-media-type: 'File processing failed: {fileName} is not a JPEG, PNG, WebP, GIF, TIFF or AVIF image.'",
    ),
  },
});

export const deleteMediaRoute = describeRoute({
  operationId: 'deleteMedia',
  summary: 'Delete an image nothing shows (a site version)',
  tags: ['admin'],
  querystring: imageQuery,
  response: {
    200: jsonAnswer(
      'Deleted: the path and the site version the delete made.',
      z.object({ deleted: z.string(), version: z.number().int() }),
    ),
    400: errorAnswer('invalid-input: no path.'),
    ...refusals,
    404: errorAnswer('image-not-found: the site has no such image.'),
    409: errorAnswer('image-in-use: a product, page, post or the design shows it (they are named).'),
  },
});

export const mediaPage = pageRoute('adminMedia', 'The media library: upload, the images and where each is shown', {
  tags: ['admin'],
  querystring: mediaPageQuery,
  response: {
    200: htmlAnswer('The page.'),
    303: redirectAnswer('Nobody signed in: to the sign-in.'),
    403: htmlAnswer('A role without media.read.'),
  },
});

export const uploadFormRoute = pageRoute('adminMediaUpload', 'Upload an image (the form, multipart/form-data)', {
  tags: ['admin'],
  response: {
    303: redirectAnswer('Uploaded: back to /admin/media with a notice.'),
    400: htmlAnswer("No file name or no bytes: the page with 'Please enter a file name' or the upload problem."),
    403: htmlAnswer('A role without media.edit.'),
    413: htmlAnswer(
      "Too large: the page with 'The file {fileName} is too large. The maximum allowed file size is {maxSize}.'",
    ),
    415: htmlAnswer('Not an image: the page with the message.'),
  },
});

export const deleteFormRoute = pageRoute('adminMediaDelete', 'Delete an image nothing shows (the form)', {
  tags: ['admin'],
  body: deleteFormBody,
  response: {
    303: redirectAnswer('Deleted: back to /admin/media with a notice.'),
    403: htmlAnswer('A role without media.edit.'),
    404: htmlAnswer('No such image: the page with the message.'),
    409: htmlAnswer('The image is in use: the page naming where.'),
  },
});
