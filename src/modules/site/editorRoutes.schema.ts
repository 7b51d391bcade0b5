/**
 * What the site editors' pages and calls share (pages, posts, collections; issue 26): the version a form was made
 * from, a title, and how an /admin page of theirs is described.
 */
import { z } from 'zod';
import { htmlAnswer, pageRoute, redirectAnswer } from '../../platform/http/apiDescription';

/** The version a save's form was made from: saves of others meanwhile are checked against it. */
export const baseVersionField = z.coerce
  .number({ error: 'must be the version the form was made from (a whole number from 1)' })
  .int('must be the version the form was made from (a whole number from 1)')
  .min(1, 'must be the version the form was made from (a whole number from 1)')
  .max(2_147_483_647, 'must be the version the form was made from (a whole number from 1)')
  .describe('The site version the editor read (GET answers it as `version`): saves of others meanwhile are checked.');

/** A page's, post's or collection's title. */
export const titleField = z
  .string({ error: 'must be the title' })
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');

/** An /admin page or form of the editors: 303 to the sign-in or back with a notice, 403 for a role without it. */
export const editorPage = (operationId: string, summary: string, more: Parameters<typeof pageRoute>[2] = {}) =>
  pageRoute(operationId, summary, {
    tags: ['admin'],
    ...more,
    response: {
      303: redirectAnswer('Nobody signed in: to the sign-in; a form done: back with a notice.'),
      403: htmlAnswer('A role without the permission.'),
      ...more.response,
    },
  });
