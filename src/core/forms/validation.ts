/** Field and form validation of spec §5, run in the browser and again on the server. */
import { validateEmail } from '../email';
import { err, ok, type Result } from '../result';
import { validateUrl } from '../url';
import { LIKERT_SCALE, type FieldValue, type FormDefinition, type FormField, type FormValues } from './fields';
import { readFieldValue } from './values';

export const FIELD_MESSAGES = {
  required: 'Required',
  likertMissing: 'Survey is not valid. Missing a required question.',
  characterLimit: 'You have exceeded the character limit.',
  captchaIncomplete: 'Complete CAPTCHA before submitting.',
  /** The spec shows no wording for a non-numeric number field; ours. */
  numberInvalid: 'Number is not valid.',
} as const;

/** A choice the field does not offer (a stale page or a forged post); wording from the spec's editor messages. */
export const notAnOptionMessage = (value: string): string => `${value} is not one of the expected options`;

/** A usable character limit: a positive whole number. */
export const characterLimit = (maxLength: unknown): number | null =>
  typeof maxLength === 'number' && Number.isInteger(maxLength) && maxLength > 0 ? maxLength : null;

/** Characters as a shopper counts them: an emoji is one, a line break is one. */
export const characterCount = (text: string): number => Array.from(text.replace(/\r\n/g, '\n')).length;

/** The live counter 'n / max', or null when the maximum is 0 or invalid (no counter). */
export const textareaCounter = (text: string, maxLength: unknown): { text: string; over: boolean } | null => {
  const max = characterLimit(maxLength);
  if (max === null) return null;
  const n = characterCount(text);
  return { text: `${n} / ${max}`, over: n > max };
};

const NUMBER_PATTERN = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;

const isEmptyValue = (value: FieldValue): boolean => {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every((part) => part.trim() === '');
  return Object.keys(value).length === 0;
};

const validateText = (field: FormField, text: string): string | null => {
  switch (field.kind) {
    case 'email': {
      const checked = validateEmail(text);
      return checked.ok ? null : checked.error;
    }
    case 'url': {
      const checked = validateUrl(text);
      return checked.ok ? null : checked.error;
    }
    case 'number':
      return NUMBER_PATTERN.test(text.trim()) ? null : FIELD_MESSAGES.numberInvalid;
    case 'text':
    case 'textarea': {
      const max = characterLimit(field.maxLength);
      return max !== null && characterCount(text) > max ? FIELD_MESSAGES.characterLimit : null;
    }
    case 'radio':
    case 'select':
      return field.options.includes(text) ? null : notAnOptionMessage(text);
    default:
      return null;
  }
};

/** The error of one field for a value already in its §3 shape, or null when valid. */
export const validateField = (field: FormField, value: FieldValue): string | null => {
  if (field.kind === 'hidden') return null;
  if (field.kind === 'likert') {
    const answers = typeof value === 'object' && !Array.isArray(value) ? value : {};
    const offered: readonly string[] = LIKERT_SCALE;
    const wrong = Object.values(answers).find((answer) => !offered.includes(answer));
    if (wrong !== undefined) return notAnOptionMessage(wrong);
    // A required survey needs every question answered; an optional one accepts any subset.
    const missing = field.required && field.questions.some((q) => !Object.hasOwn(answers, q));
    return missing ? FIELD_MESSAGES.likertMissing : null;
  }
  // Optional empty fields are valid; required ones (for multi-part: all parts empty) are not.
  if (isEmptyValue(value)) return field.required ? FIELD_MESSAGES.required : null;
  if (field.kind === 'checkbox') {
    const wrong = (Array.isArray(value) ? value : []).find((checked) => !field.options.includes(checked));
    return wrong === undefined ? null : notAnOptionMessage(wrong);
  }
  return typeof value === 'string' ? validateText(field, value) : null;
};

export interface FormErrors {
  /** Per-field messages keyed by field id, shown above each field. */
  fields: Record<string, string>;
  /** A whole-form message (the CAPTCHA rule), or null. */
  form: string | null;
}

/**
 * Validates a submission (field id → raw value) against its form. The ok value holds every
 * field's value in its §3 shape; a hidden field that was not sent keeps its own value.
 * `captchaToken` is the completed CAPTCHA's response; it is required when the form has CAPTCHA.
 */
export const validateForm = (
  definition: FormDefinition,
  rawValues: unknown,
  captchaToken?: string | null,
): Result<FormValues, FormErrors> => {
  const given =
    typeof rawValues === 'object' && rawValues !== null && !Array.isArray(rawValues)
      ? (rawValues as Record<string, unknown>)
      : {};
  const values: FormValues = {};
  const fields: Record<string, string> = {};
  for (const field of definition.fields) {
    const raw = Object.hasOwn(given, field.id) ? given[field.id] : undefined;
    const value = field.kind === 'hidden' && raw === undefined ? field.value : readFieldValue(field, raw);
    values[field.id] = value;
    const error = validateField(field, value);
    if (error !== null) fields[field.id] = error;
  }
  const captchaMissing =
    definition.captcha?.enabled === true && (typeof captchaToken !== 'string' || captchaToken.trim() === '');
  const form = captchaMissing ? FIELD_MESSAGES.captchaIncomplete : null;
  if (Object.keys(fields).length > 0 || form !== null) return err({ fields, form });
  return ok(values);
};
