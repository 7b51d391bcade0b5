/**
 * The fields of a site form, rendered accessibly (labels, fieldsets with legends, required marks): shared by page
 * form blocks (FormBlock) and the product form dialog (src/client/islands/ProductFormDialog.tsx), so both render a
 * field the same way. Also the one reader of what those inputs post, into the raw values the core's form rules read.
 */
import { useState, type ReactNode } from 'react';
import { characterLimit, textareaCounter } from '../core/forms/validation';
import { LIKERT_DEFAULT_LABELS, LIKERT_MAX, LIKERT_MIN } from '../core/labels';
import type { FormField } from '../modules/site/schema';

/** A part input of a multi-part field: its name suffix and id part, label, autocomplete token, and the core's part name (FIELD_PARTS). */
type Part = readonly [key: string, label: string, autoComplete: string, corePart: string];

const NAME_PARTS: readonly Part[] = [
  ['first', 'First Name', 'given-name', 'first'],
  ['last', 'Last Name', 'family-name', 'last'],
];
const ADDRESS_PARTS: readonly Part[] = [
  ['line1', 'Address', 'address-line1', 'line1'],
  ['line2', 'Address 2', 'address-line2', 'line2'],
  ['city', 'City', 'address-level2', 'city'],
  ['region', 'State', 'address-level1', 'state'],
  ['postcode', 'ZIP Code', 'postal-code', 'zip'],
  ['country', 'Country', 'country-name', 'country'],
];
const phoneParts = (showCountryCode: boolean): readonly Part[] => [
  ...(showCountryCode ? ([['country', 'Country Code', 'tel-country-code', 'countryCode']] as const) : []),
  ['area', 'Area Code', 'tel-area-code', 'areaCode'],
  ['number', 'Number', 'tel-local', 'line'],
];

const partsOf = (field: FormField): readonly Part[] | null => {
  switch (field.kind) {
    case 'name':
      return NAME_PARTS;
    case 'address':
      return ADDRESS_PARTS;
    case 'phone':
      return phoneParts(field.showCountryCode);
    default:
      return null;
  }
};

/** Values posted without JavaScript, by input name (a field's id, or `id.part`). */
type Posted = Readonly<Record<string, readonly string[]>> | undefined;

/** Ids of a field's elements: `id()` the input, `id('description')`, `id('error')`, `id(part)`. */
export type FieldIds = (part?: string) => string;

function Title({ field }: { field: FormField }) {
  return (
    <>
      {field.title}
      {field.required ? <span className="required"> (required)</span> : null}
    </>
  );
}

/** A single-control field: its error (above, §5), its label, its description, then the control. */
function LabelledField({
  field,
  id,
  error,
  children,
}: {
  field: FormField;
  id: FieldIds;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <ErrorMessage error={error} id={id('error')} />
      <label htmlFor={id()}>
        <Title field={field} />
      </label>
      <Description field={field} id={id('description')} />
      {children}
    </div>
  );
}

function Description({ field, id }: { field: FormField; id: string }) {
  return field.description ? (
    <p className="field__description" id={id}>
      {field.description}
    </p>
  ) : null;
}

/** A field's message (§5: 'Required', …), shown above the field's inputs. */
function ErrorMessage({ error, id }: { error: string | undefined; id: string }) {
  return error ? (
    <p className="field__error" id={id}>
      {error}
    </p>
  ) : null;
}

/** A group of labelled inputs (name, address, phone): a fieldset whose legend is the field title. */
function Parts({
  field,
  id,
  parts,
  error,
  posted,
}: {
  field: FormField;
  id: FieldIds;
  parts: readonly Part[];
  error?: string;
  posted: Posted;
}) {
  return (
    <fieldset className="field field--group" aria-describedby={error ? id('error') : undefined}>
      <legend>
        <Title field={field} />
      </legend>
      <ErrorMessage error={error} id={id('error')} />
      <Description field={field} id={id('description')} />
      <div className="field__parts">
        {parts.map(([key, label, autoComplete]) => (
          <div className="field" key={key}>
            <label htmlFor={id(key)}>{label}</label>
            <input
              id={id(key)}
              name={`${field.id}.${key}`}
              type="text"
              autoComplete={autoComplete}
              required={field.required}
              aria-invalid={error ? true : undefined}
              defaultValue={posted?.[`${field.id}.${key}`]?.[0]}
            />
          </div>
        ))}
      </div>
    </fieldset>
  );
}

function Choices({
  field,
  id,
  type,
  options,
  error,
  posted,
}: {
  field: FormField;
  id: FieldIds;
  type: 'radio' | 'checkbox';
  options: string[];
  error?: string;
  posted: Posted;
}) {
  return (
    <fieldset className="field field--choices" aria-describedby={error ? id('error') : undefined}>
      <legend>
        <Title field={field} />
      </legend>
      <ErrorMessage error={error} id={id('error')} />
      <Description field={field} id={id('description')} />
      {options.map((option, i) => (
        <div className="choice" key={option}>
          <input
            id={id(String(i))}
            type={type}
            name={field.id}
            value={option}
            required={type === 'radio' && field.required}
            defaultChecked={posted?.[field.id]?.includes(option)}
          />
          <label htmlFor={id(String(i))}>{option}</label>
        </div>
      ))}
    </fieldset>
  );
}

const INPUT_TYPES = { text: 'text', email: 'email', url: 'url', number: 'number', date: 'date', time: 'time' } as const;
const AUTOCOMPLETE: Partial<Record<FormField['kind'], string>> = { email: 'email', url: 'url' };

/**
 * One field of a site form. `error`, when given, is shown above the field's inputs, which point to it
 * (aria-describedby) and are marked invalid; without it the output is the form block's plain field.
 */
export function FormFieldInput({
  field,
  id,
  selectValueLabel,
  error,
  posted,
  liveCounter = false,
}: {
  field: FormField;
  id: FieldIds;
  selectValueLabel: string;
  error?: string;
  /** What a form posted without JavaScript sent, by input name: the fields show it again (React escapes it). */
  posted?: Posted;
  /** Show the §5 'n / max' counter under a text area with a maximum (only where the field is hydrated). */
  liveCounter?: boolean;
}) {
  const describedBy =
    [field.description ? id('description') : null, error ? id('error') : null].filter(Boolean).join(' ') || undefined;
  const invalid = error ? true : undefined;
  switch (field.kind) {
    case 'name':
    case 'address':
    case 'phone':
      return <Parts field={field} id={id} parts={partsOf(field) ?? []} error={error} posted={posted} />;
    case 'hidden':
      return <input type="hidden" name={field.id} value={field.value} />;
    case 'checkbox':
      return <Choices field={field} id={id} type="checkbox" options={field.options} error={error} posted={posted} />;
    case 'radio':
      return <Choices field={field} id={id} type="radio" options={field.options} error={error} posted={posted} />;
    case 'likert':
      return (
        <fieldset className="field field--likert" aria-describedby={error ? id('error') : undefined}>
          <legend>
            <Title field={field} />
          </legend>
          <ErrorMessage error={error} id={id('error')} />
          <Description field={field} id={id('description')} />
          {field.questions.map((question, q) => (
            <fieldset className="likert__question" key={question}>
              <legend>{question}</legend>
              <div className="likert__scale">
                {Array.from({ length: LIKERT_MAX - LIKERT_MIN + 1 }, (_, i) => LIKERT_MIN + i).map((value) => (
                  <div className="choice" key={value}>
                    <input
                      id={id(`${q}-${value}`)}
                      type="radio"
                      name={`${field.id}.${q}`}
                      value={value}
                      required={field.required}
                      defaultChecked={posted?.[`${field.id}.${q}`]?.[0] === String(value)}
                    />
                    <label htmlFor={id(`${q}-${value}`)}>{LIKERT_DEFAULT_LABELS[value as -2 | -1 | 0 | 1 | 2]}</label>
                  </div>
                ))}
              </div>
            </fieldset>
          ))}
        </fieldset>
      );
    case 'select':
      return (
        <LabelledField field={field} id={id} error={error}>
          <select
            id={id()}
            name={field.id}
            required={field.required}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            defaultValue={posted?.[field.id]?.[0] ?? ''}
          >
            <option value="">{selectValueLabel}</option>
            {field.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </LabelledField>
      );
    case 'textarea':
      return (
        <LabelledField field={field} id={id} error={error}>
          {liveCounter ? (
            <CountedTextarea
              id={id}
              name={field.id}
              required={field.required}
              maxLength={field.maxLength}
              describedBy={describedBy}
              invalid={invalid}
              initial={posted?.[field.id]?.[0] ?? ''}
            />
          ) : (
            <textarea
              id={id()}
              name={field.id}
              rows={5}
              required={field.required}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              defaultValue={posted?.[field.id]?.[0]}
            />
          )}
        </LabelledField>
      );
    default:
      return (
        <LabelledField field={field} id={id} error={error}>
          <input
            id={id()}
            name={field.id}
            type={INPUT_TYPES[field.kind]}
            required={field.required}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            autoComplete={AUTOCOMPLETE[field.kind]}
            placeholder={field.kind === 'text' ? field.placeholder : undefined}
            maxLength={field.kind === 'text' ? (characterLimit(field.maxLength) ?? undefined) : undefined}
            defaultValue={posted?.[field.id]?.[0]}
          />
        </LabelledField>
      );
  }
}

/** A date input's 'YYYY-MM-DD' as the core's date parts; anything else reads as empty. */
const dateParts = (text: string): Record<string, string> => {
  const match = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(text.trim());
  return match ? { year: match[1] ?? '', month: match[2] ?? '', day: match[3] ?? '' } : {};
};

/** A time input's 'HH:MM' or 'HH:MM:SS' (24-hour) as the core's time parts; anything else reads as empty. */
const timeParts = (text: string): Record<string, string> => {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?/.exec(text.trim());
  return match ? { hour: match[1] ?? '', minute: match[2] ?? '', ...(match[3] ? { second: match[3] } : {}) } : {};
};

/**
 * What the inputs of FormFieldInput post, read into raw values by field id (the shapes the core's readFieldValue
 * reads: parts by the core's part names, checked boxes as a list, a survey as question → value).
 * `values(name)` gives every value posted under a name (FormData's getAll).
 */
export function readFormInputs(
  fields: readonly FormField[],
  values: (name: string) => string[],
): Record<string, unknown> {
  const first = (name: string): string => values(name)[0] ?? '';
  const raw: Record<string, unknown> = {};
  for (const field of fields) {
    const parts = partsOf(field);
    if (parts) {
      raw[field.id] = Object.fromEntries(parts.map(([key, , , corePart]) => [corePart, first(`${field.id}.${key}`)]));
    } else if (field.kind === 'checkbox') {
      raw[field.id] = values(field.id);
    } else if (field.kind === 'likert') {
      raw[field.id] = Object.fromEntries(field.questions.map((question, q) => [question, first(`${field.id}.${q}`)]));
    } else if (field.kind === 'date') {
      raw[field.id] = dateParts(first(field.id));
    } else if (field.kind === 'time') {
      raw[field.id] = timeParts(first(field.id));
    } else {
      raw[field.id] = first(field.id);
    }
  }
  return raw;
}

/**
 * A text area with the §5 live counter 'n / max' (error style when over; none when the maximum is 0 or invalid). The
 * counter is part of the text area's description, so it is read when the field is focused, not on every keystroke.
 */
function CountedTextarea({
  id,
  name,
  required,
  maxLength,
  describedBy,
  invalid,
  initial,
}: {
  id: FieldIds;
  name: string;
  required: boolean;
  maxLength: number | undefined;
  describedBy: string | undefined;
  invalid: true | undefined;
  initial: string;
}) {
  const [text, setText] = useState(initial);
  const counter = textareaCounter(text, maxLength);
  const describedWithCounter = counter ? [describedBy, id('counter')].filter(Boolean).join(' ') : describedBy;
  return (
    <>
      <textarea
        id={id()}
        name={name}
        rows={5}
        required={required}
        aria-describedby={describedWithCounter}
        aria-invalid={invalid ?? (counter?.over || undefined)}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      {counter ? (
        <p id={id('counter')} className={counter.over ? 'field__counter field__counter--over' : 'field__counter'}>
          {counter.text}
        </p>
      ) : null}
    </>
  );
}
