/**
 * Form submissions (spec §4, §5, §7, §8): the server side of SaveFormSubmission and of a form posted without
 * JavaScript. It spends the submission key, checks every answer with the core's rules (the browser's own), checks the
 * CAPTCHA when the form has one, then in one transaction stores the submission and queues its e-mail to the shop (a
 * contact form) or signs the address up to the mailing list (a newsletter form: double opt-in). A product waitlist's
 * sign-up is a submission too (what the merchant reads with `vitrine submissions`, with the product it waits for as
 * its first answer), stored once per e-mail and product (or form): its id is derived from them, so a second sign-up,
 * even one racing the first in another process, adds nothing and e-mails nothing, while the visitor sees the same
 * success.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FormDefinition, FormValues } from '../../core/forms/fields';
import { captchaActionFor } from '../../core/forms/captcha';
import type { CaptchaAction } from '../../core/forms/submission';
import { summarizeFormAnswers } from '../../core/forms/summary';
import { validateForm } from '../../core/forms/validation';
import { err, ok, type Result } from '../../core/result';
import type { Database } from '../../platform/db/tables';
import { inTransaction } from '../../platform/db/transaction';
import type { Form } from '../site';
import { captchaProviderOf, verifyCaptcha, type CaptchaVerifier, type CaptchaVisitor } from './captcha';
import * as catalog from '../catalog';
import { enqueueEmail } from '../../platform/mail/outbox';
import type { Site } from '../site';
import { submissionEmail, type AnswerLines } from './mail';
import { spendFormKey } from './keys';
import { signUp } from './newsletter';
import { EVERYTHING } from '../../core/publishing';

type Db = Kysely<Database>;

export const SUBMISSION_MAIL_KIND = 'form-submission';

export type SubmissionRefusal =
  /** No such form on this site: 404. */
  | { kind: 'form-not-found' }
  /** The key is missing, unknown, spent or expired: 401. */
  | { kind: 'key-refused' }
  /** Answers fail the §5 rules: 400 with a message per field. */
  | { kind: 'fields'; fieldErrors: Record<string, string> }
  /** The form has a CAPTCHA and it was not completed, or its answer is not valid (forged, expired, already used). */
  | { kind: 'captcha' }
  /** The CAPTCHA's provider could not tell (unreachable, erring, not set up): 503, nothing stored, nothing let through. */
  | { kind: 'captcha-unavailable' };

export interface SubmissionInput {
  formId: string;
  /** The key from FormSubmissionKey; null for a form posted without JavaScript (its crumb stands in). */
  key: string | null;
  /** Raw answers by field id (the shapes the core reads). */
  values: unknown;
  captchaToken: string | null;
  pagePath: string | null;
  /** https://host of the request, for the newsletter's confirmation link. */
  baseUrl: string;
  /** The request's host name, address and user agent, for a third-party CAPTCHA's checks. */
  visitor?: CaptchaVisitor;
  /**
   * Where the form was shown, when not in a form block: 'promoPopup' (§7 PROMO_POPUP_SUBMISSION; believed only for the
   * site's popup form). A waitlist form's CAPTCHA is always PRODUCT_WAITLIST_SUBMISSION.
   */
  placement?: 'promoPopup' | null;
  /** A waitlist form: the product it waits for (a product of this site, else ignored). */
  productId?: string | null;
}

export interface SubmissionDeps {
  verifyCaptcha?: CaptchaVerifier;
  now?: Date;
}

/** A site form as the core's definition (its CAPTCHA is checked apart, by the site's provider). */
export const formDefinitionOf = (form: Form): FormDefinition => ({ id: form.id, name: form.name, fields: form.fields });

/** Whether this form asks for a CAPTCHA on this site. */
export const formNeedsCaptcha = (site: Site, form: Pick<Form, 'captcha'>): boolean =>
  form.captcha && captchaProviderOf(site) !== 'none';

/** The titled answers of a submission: the visible fields as the core summarizes them, then the hidden ones. */
export function answerLines(form: Form, values: FormValues): AnswerLines[] {
  const shown = summarizeFormAnswers(formDefinitionOf(form), values, form.noAnswerText);
  const hidden = form.fields
    .filter((field) => field.kind === 'hidden')
    .map((field) => ({ title: field.title, lines: [String(values[field.id] ?? '')] }));
  return [...shown, ...hidden];
}

/** Only the answers' shape-checked values are read; a form that sends something else gets the 'fields' refusal. */
export function validateAnswers(form: Form, values: unknown): Result<FormValues, Record<string, string>> {
  const checked = validateForm(formDefinitionOf(form), values);
  return checked.ok ? checked : err(checked.error.fields);
}

/** The §7 action a submission's CAPTCHA answered for: the popup's when the form is the site's popup form, else its kind's. */
export function captchaActionOf(
  site: Site,
  form: Pick<Form, 'id' | 'kind'>,
  placement: 'promoPopup' | null,
): CaptchaAction {
  if (placement === 'promoPopup' && site.settings.promoPopup?.formId === form.id) return captchaActionFor('promoPopup');
  return captchaActionFor(form.kind === 'waitlist' ? 'productWaitlist' : form.kind);
}

/** The id of a waitlist sign-up: one per site, form, product (or none) and e-mail (trimmed, lower-cased). */
export const waitlistSignUpId = (siteId: string, formId: string, productId: string | null, email: string): string =>
  `wl-${createHash('sha256')
    .update(JSON.stringify([siteId, formId, productId ?? '', email.trim().toLowerCase()]))
    .digest('base64url')
    .slice(0, 32)}`;

async function signUpForWaitlist(
  db: Db,
  site: Site,
  form: Form,
  values: FormValues,
  input: SubmissionInput,
  now: Date,
): Promise<Result<{ id: string; form: Form }, SubmissionRefusal>> {
  const emailField = form.fields.find((field) => field.kind === 'email');
  const email = emailField ? values[emailField.id] : undefined;
  // The product a waitlist is for is usually not on the storefront yet (a draft, scheduled: issue 26): named anyway.
  const product = input.productId ? await catalog.getProduct(db, site.id, input.productId, EVERYTHING) : undefined;
  const productLine: AnswerLines[] = product ? [{ title: 'Product', lines: [`${product.name} (${product.id})`] }] : [];
  const answers = [...productLine, ...answerLines(form, values)];
  const id =
    typeof email === 'string' && email.trim() !== ''
      ? waitlistSignUpId(site.id, form.id, product?.id ?? null, email)
      : randomBytes(12).toString('base64url');
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('form_submissions')
      .values({
        id,
        site_id: site.id,
        form_id: form.id,
        form_name: form.name,
        fields: JSON.stringify(product ? { ...values, productId: product.id } : values),
        answers: JSON.stringify(answers),
        page_path: input.pagePath,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    const shopEmail = site.settings.store.checkout.shopEmail;
    if (inserted && shopEmail) {
      const mail = submissionEmail({
        siteTitle: site.title,
        formName: form.name,
        answers,
        pagePath: input.pagePath,
        submittedAt: now.toISOString(),
      });
      await enqueueEmail(trx, { siteId: site.id, kind: SUBMISSION_MAIL_KIND, to: shopEmail, ...mail }, now);
    }
    return ok({ id, form });
  });
}

export async function submitForm(
  db: Db,
  site: Site,
  input: SubmissionInput,
  deps: SubmissionDeps = {},
): Promise<Result<{ id: string; form: Form }, SubmissionRefusal>> {
  const now = deps.now ?? new Date();
  const form = await catalog.getForm(db, site.id, input.formId);
  if (!form) return err({ kind: 'form-not-found' });
  if (input.key !== null && !(await spendFormKey(db, site.id, input.key, now))) return err({ kind: 'key-refused' });
  const checked = validateAnswers(form, input.values);
  if (!checked.ok) return err({ kind: 'fields', fieldErrors: checked.error });
  if (formNeedsCaptcha(site, form)) {
    const token = input.captchaToken?.trim() ?? '';
    if (token === '') return err({ kind: 'captcha' });
    const check = await (deps.verifyCaptcha ?? verifyCaptcha)(
      db,
      site,
      token,
      captchaActionOf(site, form, input.placement ?? null),
      input.visitor,
    );
    if (check === 'unavailable') return err({ kind: 'captcha-unavailable' });
    if (check !== 'ok') return err({ kind: 'captcha' });
  }
  const values = checked.value;
  if (form.kind === 'waitlist') return signUpForWaitlist(db, site, form, values, input, now);
  const answers = answerLines(form, values);
  const id = randomBytes(12).toString('base64url');
  return inTransaction(db, async (trx) => {
    await trx
      .insertInto('form_submissions')
      .values({
        id,
        site_id: site.id,
        form_id: form.id,
        form_name: form.name,
        fields: JSON.stringify(values),
        answers: JSON.stringify(answers),
        page_path: input.pagePath,
        created_at: now.toISOString(),
      })
      .execute();
    if (form.kind === 'newsletter') {
      const emailField = form.fields.find((field) => field.kind === 'email');
      const email = emailField ? values[emailField.id] : undefined;
      if (typeof email === 'string' && email.trim() !== '') {
        await signUp(trx, site, { email, formId: form.id, baseUrl: input.baseUrl }, now);
      }
    } else {
      const shopEmail = site.settings.store.checkout.shopEmail;
      if (shopEmail) {
        const mail = submissionEmail({
          siteTitle: site.title,
          formName: form.name,
          answers,
          pagePath: input.pagePath,
          submittedAt: now.toISOString(),
        });
        await enqueueEmail(trx, { siteId: site.id, kind: SUBMISSION_MAIL_KIND, to: shopEmail, ...mail }, now);
      }
    }
    return ok({ id, form });
  });
}

export interface StoredSubmission {
  id: string;
  siteId: string;
  formId: string;
  formName: string;
  answers: AnswerLines[];
  pagePath: string | null;
  createdAt: string;
}

/** Submissions, oldest first (every site and form unless filtered). */
export async function listSubmissions(
  db: Db,
  filter: { siteId?: string; formId?: string; limit?: number } = {},
): Promise<StoredSubmission[]> {
  let query = db.selectFrom('form_submissions').selectAll().orderBy('created_at', 'asc').orderBy('id');
  if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  if (filter.formId !== undefined) query = query.where('form_id', '=', filter.formId);
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    siteId: r.site_id,
    formId: r.form_id,
    formName: r.form_name,
    answers: JSON.parse(r.answers) as AnswerLines[],
    pagePath: r.page_path,
    createdAt: r.created_at,
  }));
}
