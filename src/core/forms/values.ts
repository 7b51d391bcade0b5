/** Reading submitted values into the shapes of spec §3. Never throws: anything unreadable reads as empty. */
import {
  FIELD_PARTS,
  isMultiPartKind,
  type FieldValue,
  type FormField,
  type HiddenField,
  type LikertField,
  type MultiPartKind,
} from './fields';

const asText = (raw: unknown): string | null => {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  return null;
};

/**
 * A phone value always has four parts. A three-part value (the field shown without its
 * country-code input) gets an empty first part, so the parts keep their meaning.
 */
export const phoneValue = (parts: readonly string[]): string[] => {
  if (parts.length === 3) return ['', ...parts];
  return partsOf('phone', parts);
};

const partsOf = (kind: MultiPartKind, parts: readonly string[]): string[] =>
  FIELD_PARTS[kind].map((_, i) => parts[i] ?? '');

const readParts = (kind: MultiPartKind, raw: unknown): string[] => {
  if (Array.isArray(raw)) {
    const parts = raw.map((part) => asText(part) ?? '');
    return kind === 'phone' ? phoneValue(parts) : partsOf(kind, parts);
  }
  // Also accept { first: 'Ada', last: 'Lovelace' }: plain HTML forms post named parts.
  if (typeof raw === 'object' && raw !== null) {
    const named = raw as Record<string, unknown>;
    return FIELD_PARTS[kind].map((part) => (Object.hasOwn(named, part) ? (asText(named[part]) ?? '') : ''));
  }
  return partsOf(kind, []);
};

const readChecked = (raw: unknown): string[] => {
  if (Array.isArray(raw)) return raw.map(asText).filter((v): v is string => v !== null && v !== '');
  const single = asText(raw);
  return single ? [single] : [];
};

const readLikert = (field: LikertField, raw: unknown): Record<string, string> => {
  const answers: Record<string, string> = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return answers;
  const given = raw as Record<string, unknown>;
  for (const question of field.questions) {
    const value = Object.hasOwn(given, question) ? asText(given[question]) : null;
    if (value !== null && value !== '') answers[question] = value;
  }
  return answers;
};

/** The value of one field in its §3 shape. */
export const readFieldValue = (field: FormField, raw: unknown): FieldValue => {
  if (isMultiPartKind(field.kind)) return readParts(field.kind, raw);
  if (field.kind === 'checkbox') return readChecked(raw);
  if (field.kind === 'likert') return readLikert(field, raw);
  return asText(raw) ?? '';
};

/**
 * A hidden field's value: the page query string's value under the field's name (its `id`, the name its input posts
 * under; not its title, which is only shown in submissions), else the field's own value. An empty query value also
 * falls back: '?source=' carries nothing.
 */
export const hiddenFieldValue = (field: HiddenField, queryString: string): string => {
  const fromQuery = new URLSearchParams(queryString).get(field.id);
  return fromQuery !== null && fromQuery !== '' ? fromQuery : field.value;
};
