/**
 * The settings page's parts (/admin/settings, issue 26): one card per section (store, shipping, tax, coupons,
 * payments, e-mail, CAPTCHA, promo popup, analytics), each its own plain form (no JavaScript needed). Staff who may
 * look but not change see the values without forms. Secrets are never shown: the page says which of the environment's
 * settings are set.
 */
import type { ReactNode } from 'react';

export const SETTINGS_PATH = '/admin/settings';

export const SETTINGS_SECTIONS = [
  { id: 'store', title: 'Store' },
  { id: 'shipping', title: 'Shipping' },
  { id: 'tax', title: 'Tax' },
  { id: 'coupons', title: 'Coupons' },
  { id: 'payments', title: 'Payments' },
  { id: 'email', title: 'E-mail' },
  { id: 'captcha', title: 'CAPTCHA' },
  { id: 'popup', title: 'Promo popup' },
  { id: 'analytics', title: 'Analytics' },
] as const;
export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

/** A section's form as shown again after a refusal: the values typed, and what is wrong (field name → message). */
export interface SectionState {
  values: Readonly<Record<string, string | readonly string[]>>;
  problems: readonly { field: string; message: string }[];
}

interface FormContext {
  crumb: string;
  crumbField: string;
  baseVersion: number;
}

/** A section card: its heading, its notice (saved, or what was wrong), its content. */
export function SettingsSection(props: {
  id: SettingsSectionId;
  title: string;
  notice?: { kind: 'done' | 'error'; text: string; problems?: readonly { label: string; message: string }[] };
  children: ReactNode;
}) {
  return (
    <section className="admin-card" id={props.id} aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>{props.title}</h2>
      {props.notice ? (
        <div
          className={`admin-notice admin-notice-${props.notice.kind}`}
          role={props.notice.kind === 'error' ? 'alert' : 'status'}
        >
          <p>{props.notice.text}</p>
          {props.notice.problems?.length ? (
            <ul>
              {props.notice.problems.map((p) => (
                <li key={`${p.label}:${p.message}`}>{`${p.label}: ${p.message}`}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {props.children}
    </section>
  );
}

/** A section's form: the crumb, the version it was made from, its fields, and its button. */
export function SectionForm(
  props: FormContext & {
    action: string;
    label: string;
    button: string;
    children: ReactNode;
  },
) {
  return (
    <form className="admin-form" method="post" action={props.action} aria-label={props.label}>
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      <input type="hidden" name="baseVersion" value={props.baseVersion} />
      {props.children}
      <div>
        <button type="submit" className="admin-button">
          {props.button}
        </button>
      </div>
    </form>
  );
}

/** A row's button that posts one operation (remove) of a list, with its own small form. */
export function RowButton(
  props: FormContext & { action: string; op: string; label: string; text: string; danger?: boolean },
) {
  return (
    <form className="admin-inline-form" method="post" action={props.action}>
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      <input type="hidden" name="baseVersion" value={props.baseVersion} />
      <button
        type="submit"
        name="op"
        value={props.op}
        className={`admin-button admin-button-quiet${props.danger ? ' admin-button-danger-quiet' : ''}`}
        aria-label={props.label}
      >
        {props.text}
      </button>
    </form>
  );
}

interface FieldProps {
  section: string;
  name: string;
  label: string;
  value: string;
  hint?: string;
  error?: string | undefined;
}

const fieldId = (p: { section: string; name: string }) => `${p.section}-${p.name}`;

function described(p: FieldProps): { 'aria-describedby'?: string; 'aria-invalid'?: true } {
  const ids = [p.error ? `${fieldId(p)}-error` : '', p.hint ? `${fieldId(p)}-hint` : ''].filter(Boolean).join(' ');
  return { ...(ids ? { 'aria-describedby': ids } : {}), ...(p.error ? { 'aria-invalid': true as const } : {}) };
}

function Notes(p: FieldProps) {
  return (
    <>
      {p.hint ? (
        <span className="admin-hint" id={`${fieldId(p)}-hint`}>
          {p.hint}
        </span>
      ) : null}
      {p.error ? (
        <span className="admin-field-error" id={`${fieldId(p)}-error`}>
          {p.error}
        </span>
      ) : null}
    </>
  );
}

export function TextField(
  p: FieldProps & {
    type?: 'text' | 'email' | 'number' | 'date';
    inputMode?: 'decimal' | 'numeric';
    maxLength?: number;
  },
) {
  return (
    <div>
      <label htmlFor={fieldId(p)}>{p.label}</label>
      <input
        id={fieldId(p)}
        name={p.name}
        type={p.type === 'number' ? 'text' : (p.type ?? 'text')}
        {...(p.inputMode ? { inputMode: p.inputMode } : {})}
        {...(p.maxLength ? { maxLength: p.maxLength } : {})}
        defaultValue={p.value}
        {...described(p)}
      />
      <Notes {...p} />
    </div>
  );
}

export function TextArea(p: FieldProps & { maxLength?: number }) {
  return (
    <div>
      <label htmlFor={fieldId(p)}>{p.label}</label>
      <textarea
        id={fieldId(p)}
        name={p.name}
        rows={3}
        maxLength={p.maxLength}
        defaultValue={p.value}
        {...described(p)}
      />
      <Notes {...p} />
    </div>
  );
}

export function SelectField(p: FieldProps & { options: readonly { value: string; label: string }[] }) {
  return (
    <div>
      <label htmlFor={fieldId(p)}>{p.label}</label>
      <select id={fieldId(p)} name={p.name} defaultValue={p.value} {...described(p)}>
        {p.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Notes {...p} />
    </div>
  );
}

export function CheckField(p: Omit<FieldProps, 'value'> & { checked: boolean }) {
  return (
    <div>
      <div className="admin-check">
        <input
          type="checkbox"
          id={fieldId(p)}
          name={p.name}
          value="yes"
          defaultChecked={p.checked}
          {...described({ ...p, value: '' })}
        />
        <label htmlFor={fieldId(p)}>{p.label}</label>
      </div>
      <Notes {...p} value="" />
    </div>
  );
}

/** Several checkboxes of one name (countries). */
export function CheckGroup(
  p: Omit<FieldProps, 'value'> & { values: readonly string[]; options: readonly { value: string; label: string }[] },
) {
  return (
    <fieldset {...(p.error ? { 'aria-describedby': `${fieldId(p)}-error` } : {})}>
      <legend>{p.label}</legend>
      {p.hint ? <span className="admin-hint">{p.hint}</span> : null}
      <div className="admin-check-group">
        {p.options.map((o) => (
          <div className="admin-check" key={o.value}>
            <input
              type="checkbox"
              id={`${fieldId(p)}-${o.value}`}
              name={p.name}
              value={o.value}
              defaultChecked={p.values.includes(o.value)}
            />
            <label htmlFor={`${fieldId(p)}-${o.value}`}>{o.label}</label>
          </div>
        ))}
      </div>
      {p.error ? (
        <span className="admin-field-error" id={`${fieldId(p)}-error`}>
          {p.error}
        </span>
      ) : null}
    </fieldset>
  );
}

/** A read-only list of facts (for staff who may only look, and the environment's settings). */
export function Facts(props: { rows: readonly [string, string][]; label: string }) {
  return (
    <dl className="admin-facts admin-facts-wrap" aria-label={props.label}>
      {props.rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The sections' table of contents. */
export function SettingsContents() {
  return (
    <nav aria-label="Settings sections" className="admin-subnav">
      <ul>
        {SETTINGS_SECTIONS.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`}>{s.title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
