/**
 * The forms' pages made for one visitor (per-visitor page kinds: src/render/visitorPageKind.ts; `no-store`), with
 * their form actions:
 *   GET  /newsletter/confirm?token=   ./newsletterConfirm.tsx: the e-mail's link, a button
 *   POST /newsletter/confirm          { token, crumb } → 'Subscription confirmed' (or 'This link is not valid', 404)
 *   POST /{page path}                 a form block posted without JavaScript, to its own page (any query kept: hidden
 *                                     fields read it) → `formPosted`: that page made again for this visitor with the
 *                                     errors or the success text (the island's statuses); a success redirect is a 303
 * Budgets and refusals: ../formRequests.ts.
 */
import fastifyFormbody from '@fastify/formbody';
import { ALTCHA_FIELD, FORM_ID_FIELD } from '../../../client/islands/FormBlockForm';
import { FORM_STATUS_MESSAGES } from '../../../core/forms/submission';
import { hiddenFieldValue } from '../../../core/forms/values';
import { mailLinkOrigin, type AppContext } from '../../../platform/http/appContext';
import { canonicalPath } from '../../../render/renderPath';
import { visitorPageKind, type VisitorPageModule } from '../../../render/visitorPageKind';
import { readFormInputs } from '../../../ui/FormFields';
import type { FormPostState } from '../../../ui/formPost';
import * as catalog from '../../catalog';
import { siteOf } from '../../site';
import { bodyObject, FORM_ID, formRequests, refusalAnswer, visitorOf, type FormRouteOptions } from '../formRequests';
import { confirmSubscription, NEWSLETTER_CONFIRM_PATH } from '../newsletter';
import { formPostRoute, newsletterConfirmRoute } from '../routes.schema';
import { submitForm } from '../submissions';
import { newsletterConfirm } from './newsletterConfirm';

/** The page a form block was posted from (a content page) again, with the post's outcome: shown by the form only. */
export const formPosted = visitorPageKind<{ path: string; outcome: FormPostState; status: number }>({
  name: 'formPosted',
  paths: [],
  headers: { 'cache-control': 'no-store' },
  view: (_visit, { path, outcome, status }) => ({ contentPage: { path, formPost: outcome }, status }),
});

export function formPages(ctx: AppContext, options: FormRouteOptions = {}): VisitorPageModule {
  const { config, overFormBudget, captchaDeps } = formRequests(ctx, options);
  const confirm = newsletterConfirm(ctx);
  return {
    name: 'forms',
    kinds: [confirm, formPosted],
    scope: async (scope) => {
      await scope.register(fastifyFormbody);
    },
    actions: (scope, pages) => {
      scope.post(NEWSLETTER_CONFIRM_PATH, { config, schema: newsletterConfirmRoute }, async (request, reply) => {
        const site = await siteOf(request);
        const email = await confirmSubscription(ctx.db, site.id, bodyObject(request.body).token);
        return pages.send(
          confirm,
          { request, reply, site },
          email === null ? { shown: 'notValid' } : { shown: 'confirmed', email },
        );
      });

      scope.post('/*', { config, schema: formPostRoute }, async (request, reply) => {
        if (request.url.startsWith('/api/')) return reply.callNotFound();
        const body = bodyObject(request.body);
        const formId = body[FORM_ID_FIELD];
        if (typeof formId !== 'string' || !FORM_ID.test(formId)) return reply.callNotFound();
        const site = await siteOf(request);
        const path = canonicalPath(request.url);
        const page = await catalog.getPageByPath(ctx.db, site.id, path);
        const block = page?.blocks.find(
          (b) =>
            (b.type === 'form' || b.type === 'productWaitlist') &&
            b.formId === formId &&
            (b.type === 'form' ||
              b.productId === undefined ||
              body.productId === undefined ||
              b.productId === body.productId),
        );
        const form = block ? await catalog.getForm(ctx.db, site.id, formId) : undefined;
        if (!page || !form) return reply.callNotFound();
        const values = (name: string): string[] => {
          const value = body[name];
          return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
        };
        const raw = readFormInputs(form.fields, values);
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        for (const field of form.fields) {
          if (field.kind === 'hidden') raw[field.id] = hiddenFieldValue(field, query);
        }
        // What the visitor typed, by input name, to fill the fields in again (React escapes it); hidden ones excepted.
        const posted: Record<string, string[]> = {};
        for (const field of form.fields) {
          if (field.kind === 'hidden') continue;
          for (const name of Object.keys(body)) {
            if (name === field.id || name.startsWith(`${field.id}.`)) posted[name] = values(name).slice(0, 100);
          }
        }
        const show = (outcome: FormPostState, status = 200) =>
          pages.send(formPosted, { request, reply, site }, { path, outcome, status });
        const wait = await overFormBudget(request, site.id, formId);
        if (wait !== null) {
          reply.header('retry-after', wait);
          return show(
            { formId, fieldErrors: {}, error: FORM_STATUS_MESSAGES[429], success: false, values: posted },
            429,
          );
        }
        const result = await submitForm(
          ctx.db,
          site,
          {
            formId,
            // The crumb (checked before this handler) stands in for the key: this post came from the site's own page.
            key: null,
            values: raw,
            captchaToken: typeof body[ALTCHA_FIELD] === 'string' ? (body[ALTCHA_FIELD] as string) : null,
            pagePath: path,
            baseUrl: mailLinkOrigin(ctx, site, request),
            visitor: visitorOf(request),
            productId: block?.type === 'productWaitlist' ? (block.productId ?? null) : null,
          },
          captchaDeps,
        );
        if (result.ok) {
          if (form.successRedirect && /^\/(?![/\\])[^\t\n\r]*$/.test(form.successRedirect)) {
            return reply.header('cache-control', 'no-store').redirect(form.successRedirect, 303);
          }
          return show({ formId, fieldErrors: {}, error: null, success: true, values: {} });
        }
        const answer = refusalAnswer(result.error);
        return show(
          { formId, fieldErrors: answer.body.errors ?? {}, error: answer.body.error, success: false, values: posted },
          answer.status,
        );
      });
    },
  };
}
