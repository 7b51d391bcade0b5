import { DEFAULT_LABELS, LIKERT_DEFAULT_LABELS, LIKERT_MAX, LIKERT_MIN } from '../core/labels';
import type { Form, FormField } from '../site/schema';

/**
 * A form block's fields, rendered accessibly (labels, fieldsets with legends, required marks). Submission
 * (validation, CAPTCHA, the §7 calls) is a later issue: the form renders but does not submit anywhere yet.
 */
export function FormBlock({ form, selectValueLabel = DEFAULT_LABELS.selectValue }: { form: Form; selectValueLabel?: string }) {
  const id = (field: FormField, part?: string) => `form-${form.id}-${field.id}${part ? `-${part}` : ''}`;
  return (
    // POST, never GET: answers (e-mail addresses, names) must not end up in URLs and access logs. The submission
    // endpoint arrives with the forms issue; until then a no-JS submit reaches the 404 page.
    <form className="form-block" method="post" data-form-id={form.id} aria-label={form.name} noValidate>
      {form.fields.map((field) => (
        <Field key={field.id} field={field} id={(part?: string) => id(field, part)} selectValueLabel={selectValueLabel} />
      ))}
      {form.disclaimer ? <p className="form-block__disclaimer">{form.disclaimer}</p> : null}
      <button type="submit" className="button button--primary">
        {form.submitLabel}
      </button>
    </form>
  );
}

function Title({ field }: { field: FormField }) {
  return (
    <>
      {field.title}
      {field.required ? <span className="required"> (required)</span> : null}
    </>
  );
}

function Description({ field, id }: { field: FormField; id: string }) {
  return field.description ? (
    <p className="field__description" id={id}>
      {field.description}
    </p>
  ) : null;
}

/** A group of labelled inputs (name, address, phone): a fieldset whose legend is the field title. */
function Parts({ field, id, parts }: { field: FormField; id: (part?: string) => string; parts: [key: string, label: string, autoComplete: string][] }) {
  return (
    <fieldset className="field field--group">
      <legend>
        <Title field={field} />
      </legend>
      <Description field={field} id={id('description')} />
      <div className="field__parts">
        {parts.map(([key, label, autoComplete]) => (
          <div className="field" key={key}>
            <label htmlFor={id(key)}>{label}</label>
            <input id={id(key)} name={`${field.id}.${key}`} type="text" autoComplete={autoComplete} required={field.required} />
          </div>
        ))}
      </div>
    </fieldset>
  );
}

function Choices({ field, id, type, options }: { field: FormField; id: (part?: string) => string; type: 'radio' | 'checkbox'; options: string[] }) {
  return (
    <fieldset className="field field--choices">
      <legend>
        <Title field={field} />
      </legend>
      <Description field={field} id={id('description')} />
      {options.map((option, i) => (
        <div className="choice" key={option}>
          <input id={id(String(i))} type={type} name={field.id} value={option} required={type === 'radio' && field.required} />
          <label htmlFor={id(String(i))}>{option}</label>
        </div>
      ))}
    </fieldset>
  );
}

const INPUT_TYPES = { text: 'text', email: 'email', url: 'url', number: 'number', date: 'date', time: 'time' } as const;
const AUTOCOMPLETE: Partial<Record<FormField['kind'], string>> = { email: 'email', url: 'url' };

function Field({ field, id, selectValueLabel }: { field: FormField; id: (part?: string) => string; selectValueLabel: string }) {
  const describedBy = field.description ? id('description') : undefined;
  switch (field.kind) {
    case 'hidden':
      return <input type="hidden" name={field.id} value={field.value} />;
    case 'name':
      return (
        <Parts field={field} id={id} parts={[['first', 'First Name', 'given-name'], ['last', 'Last Name', 'family-name']]} />
      );
    case 'address':
      return (
        <Parts
          field={field}
          id={id}
          parts={[
            ['line1', 'Address', 'address-line1'],
            ['line2', 'Address 2', 'address-line2'],
            ['city', 'City', 'address-level2'],
            ['region', 'State', 'address-level1'],
            ['postcode', 'ZIP Code', 'postal-code'],
            ['country', 'Country', 'country-name'],
          ]}
        />
      );
    case 'phone':
      return (
        <Parts
          field={field}
          id={id}
          parts={[
            ...(field.showCountryCode ? ([['country', 'Country Code', 'tel-country-code']] as [string, string, string][]) : []),
            ['area', 'Area Code', 'tel-area-code'],
            ['number', 'Number', 'tel-local'],
          ]}
        />
      );
    case 'checkbox':
      return <Choices field={field} id={id} type="checkbox" options={field.options} />;
    case 'radio':
      return <Choices field={field} id={id} type="radio" options={field.options} />;
    case 'likert':
      return (
        <fieldset className="field field--likert">
          <legend>
            <Title field={field} />
          </legend>
          <Description field={field} id={id('description')} />
          {field.questions.map((question, q) => (
            <fieldset className="likert__question" key={question}>
              <legend>{question}</legend>
              <div className="likert__scale">
                {Array.from({ length: LIKERT_MAX - LIKERT_MIN + 1 }, (_, i) => LIKERT_MIN + i).map((value) => (
                  <div className="choice" key={value}>
                    <input id={id(`${q}-${value}`)} type="radio" name={`${field.id}.${q}`} value={value} required={field.required} />
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
        <div className="field">
          <label htmlFor={id()}>
            <Title field={field} />
          </label>
          <Description field={field} id={id('description')} />
          <select id={id()} name={field.id} required={field.required} aria-describedby={describedBy} defaultValue="">
            <option value="">{selectValueLabel}</option>
            {field.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
      );
    case 'textarea':
      return (
        <div className="field">
          <label htmlFor={id()}>
            <Title field={field} />
          </label>
          <Description field={field} id={id('description')} />
          <textarea id={id()} name={field.id} rows={5} required={field.required} aria-describedby={describedBy} />
        </div>
      );
    default:
      return (
        <div className="field">
          <label htmlFor={id()}>
            <Title field={field} />
          </label>
          <Description field={field} id={id('description')} />
          <input
            id={id()}
            name={field.id}
            type={INPUT_TYPES[field.kind]}
            required={field.required}
            aria-describedby={describedBy}
            autoComplete={AUTOCOMPLETE[field.kind]}
            placeholder={field.kind === 'text' ? field.placeholder : undefined}
          />
        </div>
      );
  }
}
