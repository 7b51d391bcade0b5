/** Form field kinds of spec §3 and the shapes of their values. */

export const SINGLE_VALUE_KINDS = ['text', 'textarea', 'email', 'url', 'number'] as const;
export const MULTI_PART_KINDS = ['name', 'date', 'time', 'address', 'phone'] as const;
export const FORM_FIELD_KINDS = [
  ...SINGLE_VALUE_KINDS,
  ...MULTI_PART_KINDS,
  'checkbox',
  'radio',
  'select',
  'likert',
  'hidden',
] as const;

export type SingleValueKind = (typeof SINGLE_VALUE_KINDS)[number];
export type MultiPartKind = (typeof MULTI_PART_KINDS)[number];
export type FormFieldKind = (typeof FORM_FIELD_KINDS)[number];

/** The child inputs of each multi-part field, in value order. */
export const FIELD_PARTS = {
  name: ['first', 'last'],
  date: ['month', 'day', 'year'],
  time: ['hour', 'minute', 'second', 'ampm'],
  address: ['line1', 'line2', 'city', 'state', 'zip', 'country'],
  // The country code comes first; a phone field shown without it sends three parts (see values.ts).
  phone: ['countryCode', 'areaCode', 'prefix', 'line'],
} as const satisfies Record<MultiPartKind, readonly string[]>;

/** Likert scale values -2 … 2 and their default labels (§9). */
export const LIKERT_SCALE = ['-2', '-1', '0', '1', '2'] as const;
export type LikertValue = (typeof LIKERT_SCALE)[number];
export const DEFAULT_LIKERT_LABELS: Readonly<Record<LikertValue, string>> = {
  '-2': 'Strongly Disagree',
  '-1': 'Disagree',
  '0': 'Neutral',
  '1': 'Agree',
  '2': 'Strongly Agree',
};

interface FieldBase {
  id: string;
  title: string;
  required: boolean;
  description?: string;
}

export interface SingleValueField extends FieldBase {
  kind: Exclude<SingleValueKind, 'textarea'>;
  placeholder?: string;
  /** A text field's character limit (the input stops there; the server refuses more); 0, absent or invalid: none. */
  maxLength?: number;
}
export interface TextareaField extends FieldBase {
  kind: 'textarea';
  /** Character limit; 0, absent or invalid means no limit and no counter. */
  maxLength?: number;
  placeholder?: string;
}
export interface MultiPartField extends FieldBase {
  kind: Exclude<MultiPartKind, 'phone'>;
}
export interface PhoneField extends FieldBase {
  kind: 'phone';
  /** Whether the country-code input is shown. */
  showCountryCode?: boolean;
}
export interface ChoiceField extends FieldBase {
  kind: 'checkbox' | 'radio' | 'select';
  options: readonly string[];
}
export interface LikertField extends FieldBase {
  kind: 'likert';
  questions: readonly string[];
  /** Labels of the -2 … 2 scale; defaults to DEFAULT_LIKERT_LABELS. */
  scale?: Readonly<Record<LikertValue, string>>;
}
export interface HiddenField extends FieldBase {
  kind: 'hidden';
  /** Used when the page's query string has no value under the field's name (its id). */
  value: string;
}

export type FormField =
  SingleValueField | TextareaField | MultiPartField | PhoneField | ChoiceField | LikertField | HiddenField;

export interface FormCaptchaSettings {
  enabled: boolean;
  siteKey?: string;
}

export interface FormDefinition {
  id: string;
  name: string;
  fields: readonly FormField[];
  submissionMessage?: string;
  submissionHtml?: string;
  successRedirect?: string;
  disclaimer?: string;
  captcha?: FormCaptchaSettings;
}

/** Value shapes by kind: multi-part → one string per part; checkbox → checked options; likert → question → value. */
export type FieldValue = string | string[] | Record<string, string>;
export type FormValues = Record<string, FieldValue>;

export const isSingleValueKind = (kind: FormFieldKind): kind is SingleValueKind =>
  (SINGLE_VALUE_KINDS as readonly string[]).includes(kind);
export const isMultiPartKind = (kind: FormFieldKind): kind is MultiPartKind =>
  (MULTI_PART_KINDS as readonly string[]).includes(kind);
export const isFormFieldKind = (value: unknown): value is FormFieldKind =>
  typeof value === 'string' && (FORM_FIELD_KINDS as readonly string[]).includes(value);
