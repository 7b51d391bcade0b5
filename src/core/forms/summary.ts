/** Display lines for form answers (spec §2, §3, §8): order pages, confirmation e-mails, product form recaps. */
import {
  DEFAULT_LIKERT_LABELS,
  type FieldValue,
  type FormDefinition,
  type FormField,
  type FormFieldKind,
} from './fields';
import { phoneValue, readFieldValue } from './values';

export const NO_ANSWER_TEXT = 'N/A';

/** A stored answer as §3 describes it: type, rawTitle, value, values. */
export interface FormFieldAnswer {
  type: FormFieldKind | (string & {});
  rawTitle: string;
  value?: string | null;
  values?: readonly string[] | Readonly<Record<string, string>> | null;
}

const clean = (parts: readonly (string | undefined)[]): string[] =>
  parts.map((p) => (p ?? '').trim()).filter((p) => p !== '');

const twoDigits = (part: string | undefined): string => {
  const text = (part ?? '').trim();
  return /^\d$/.test(text) ? `0${text}` : text;
};

// Stored answers come from old submissions and imports: anything that is not text reads as empty.
const textOf = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';

const listOf = (answer: FormFieldAnswer): string[] => (Array.isArray(answer.values) ? answer.values.map(textOf) : []);

const mapOf = (answer: FormFieldAnswer): Record<string, string> =>
  answer.values && typeof answer.values === 'object' && !Array.isArray(answer.values)
    ? (answer.values as Record<string, string>)
    : {};

const addressLines = ([line1, line2, city, state, zip, country]: string[]): string[] => {
  // 'City, State ZIP' on one line, as envelopes are written in most of the covered countries.
  const region = clean([state, zip]).join(' ');
  return clean([line1, line2, clean([city, region]).join(', '), country]);
};

const timeLine = ([hour, minute, second, ampm]: string[]): string[] => {
  // An AM/PM choice alone is not a time.
  if (clean([hour, minute, second]).length === 0) return [];
  const clock = [(hour ?? '').trim() || '0', twoDigits(minute) || '00'];
  if (clean([second]).length) clock.push(twoDigits(second));
  return [clean([clock.join(':'), ampm]).join(' ')];
};

const phoneLine = (parts: string[]): string[] => {
  const [countryCode = '', ...rest] = phoneValue(parts);
  const code = countryCode.trim().replace(/^\+/, '');
  const line = clean([code ? `+${code}` : '', ...rest]).join(' ');
  return line ? [line] : [];
};

const likertLines = (answers: Record<string, string>): string[] =>
  Object.entries(answers)
    .filter(([, v]) => typeof v === 'string' && v.trim() !== '')
    .map(
      ([question, v]) =>
        `${question}: ${Object.hasOwn(DEFAULT_LIKERT_LABELS, v) ? DEFAULT_LIKERT_LABELS[v as keyof typeof DEFAULT_LIKERT_LABELS] : v}`,
    );

const answerLines = (answer: FormFieldAnswer): string[] => {
  const parts = listOf(answer);
  switch (answer.type) {
    case 'address':
      return addressLines(parts);
    case 'checkbox':
      return clean(parts).length ? [clean(parts).join(', ')] : [];
    case 'date':
      return clean(parts).length ? [clean(parts).join('/')] : [];
    case 'likert':
      return likertLines(mapOf(answer));
    case 'name':
      return clean(parts).length ? [clean(parts).join(' ')] : [];
    case 'phone':
      return phoneLine(parts);
    case 'time':
      return timeLine(parts);
    default: {
      const single = textOf(answer.value).trim();
      if (single) return [single];
      return clean(parts).length ? [clean(parts).join(', ')] : [];
    }
  }
};

/**
 * The lines that show one answer. A missing answer shows the configured no-answer text, else
 * 'N/A' — never an empty gap that looks like a rendering bug.
 */
export const summarizeFormAnswer = (answer: FormFieldAnswer, noAnswerText?: string | null): string[] => {
  const lines = answerLines(answer);
  if (lines.length > 0) return lines;
  return [typeof noAnswerText === 'string' && noAnswerText.trim() ? noAnswerText : NO_ANSWER_TEXT];
};

/** One answered field as a cart line or recap shows it: the field's title and its lines. */
export interface FormAnswerSummary {
  title: string;
  lines: string[];
}

const answerOf = (field: FormField, value: FieldValue): FormFieldAnswer =>
  typeof value === 'string'
    ? { type: field.kind, rawTitle: field.title, value }
    : { type: field.kind, rawTitle: field.title, values: value };

/**
 * The summary of stored answers (field id → value) for every field of the form a shopper sees, in the form's order:
 * hidden fields are left out, a field without an answer shows the no-answer text (else 'N/A').
 */
export const summarizeFormAnswers = (
  definition: Pick<FormDefinition, 'fields'>,
  answers: unknown,
  noAnswerText?: string | null,
): FormAnswerSummary[] => {
  const given =
    typeof answers === 'object' && answers !== null && !Array.isArray(answers)
      ? (answers as Record<string, unknown>)
      : {};
  return definition.fields
    .filter((field) => field.kind !== 'hidden')
    .map((field) => ({
      title: field.title,
      lines: summarizeFormAnswer(
        answerOf(field, readFieldValue(field, Object.hasOwn(given, field.id) ? given[field.id] : undefined)),
        noAnswerText,
      ),
    }));
};
