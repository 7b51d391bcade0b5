/**
 * Product forms (spec §4 "Items with a custom form"): the answers a shopper gives before an item is added. The
 * browser checks them before it sends the add, and the server checks them again with the same rules (§5 "The
 * server also validates and returns per-field errors"). Answers travel as the entry's additionalFields (§3).
 */
import { canonicalJson } from '../canonicalJson';
import { err, ok, type Result } from '../result';
import type { FormDefinition } from './fields';
import { validateForm } from './validation';

/** What a product form refusal carries: each field's message (shown above the field) and one text naming them. */
export interface ProductFormRefusal {
  /** Field id → its §5 message ('Required', …). */
  fields: Record<string, string>;
  /** One line for the shopper and the API: 'Engraving text: Required. Lettering: Required.' */
  message: string;
}

/** The answers in an entry's additionalFields text ('' or unreadable text reads as no answers at all). */
export const parseProductFormAnswers = (additionalFields: string): Record<string, unknown> => {
  if (additionalFields.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(additionalFields);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
};

/** 'Engraving text: Required. Notes: You have exceeded the character limit.' — fields in the form's order. */
export const productFormRefusalMessage = (
  definition: FormDefinition,
  fields: Readonly<Record<string, string>>,
): string =>
  definition.fields
    .filter((field) => Object.hasOwn(fields, field.id))
    .map((field) => {
      const message = fields[field.id] ?? '';
      return `${field.title}: ${message}${/[.!?]$/.test(message) ? '' : '.'}`;
    })
    .join(' ');

/**
 * Checks a product form's answers (field id → raw value) with the core's form rules. A product form is not a form
 * submission: it has no CAPTCHA step, so the form's CAPTCHA setting does not apply. The ok value is the text to
 * store: every field's answer in its §3 shape, as canonical JSON (the same answers always give the same text, so
 * equal lines merge).
 */
export const checkProductFormAnswers = (
  definition: FormDefinition,
  answers: unknown,
): Result<string, ProductFormRefusal> => {
  const checked = validateForm({ ...definition, captcha: undefined }, answers);
  if (!checked.ok)
    return err({ fields: checked.error.fields, message: productFormRefusalMessage(definition, checked.error.fields) });
  // Values are at most two levels deep (a likert map), far inside canonicalJson's limit.
  return ok(canonicalJson(checked.value) ?? '{}');
};
