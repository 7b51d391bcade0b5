/**
 * The design editor's parts (/admin/design, issue 26): the look's form (colours typed as hex or HSL or picked, fonts,
 * button shape, logo, favicon), the preview frame beside it (the storefront's home page), the header's menu and the
 * footer's links (each moved with up and down buttons). Plain forms: everything works without JavaScript; the form's
 * "Preview" posts it to the frame, saving nothing (with JavaScript, src/client/admin/designPreview.ts posts it as the
 * owner edits).
 */
import type { ReactNode } from 'react';
import { SITE_EDITOR_FRAME_ATTRIBUTE } from '../../core/siteEditor';

export const DESIGN_PATH = '/admin/design';
export const DESIGN_PREVIEW_PATH = '/admin/design/preview';
/** The preview frame's name: the look form's Preview button targets it. */
export const DESIGN_PREVIEW_FRAME = 'design-preview';
/** On the look form: posted to the frame as the owner edits, when JavaScript runs. */
export const LIVE_PREVIEW_ATTRIBUTE = 'data-live-preview';

export const COLOUR_FIELDS = [
  { name: 'background', label: 'Background' },
  { name: 'text', label: 'Text' },
  { name: 'accent', label: 'Accent (links)' },
  { name: 'buttonBackground', label: 'Button background' },
  { name: 'buttonText', label: 'Button text' },
] as const;
export type ColourField = (typeof COLOUR_FIELDS)[number]['name'];

export const FONT_LABELS: Readonly<Record<string, string>> = {
  'system-ui': 'System sans-serif',
  'old-style': 'Old-style serif',
  transitional: 'Transitional serif',
  humanist: 'Humanist sans-serif',
  geometric: 'Geometric sans-serif',
  monospace: 'Monospace',
  inter: 'Inter (sans-serif)',
  'dm-sans': 'DM Sans (geometric sans-serif)',
  'source-serif': 'Source Serif 4 (serif)',
  lora: 'Lora (serif)',
  'playfair-display': 'Playfair Display (display serif)',
};

export const SHAPE_LABELS: Readonly<Record<string, string>> = {
  square: 'Square corners',
  rounded: 'Rounded corners',
  pill: 'Round ends (pill)',
};

/** The look's form as shown: each field's text (what is stored, or what was typed). */
export interface LookValues {
  colours: Record<ColourField, { text: string; picker: string }>;
  headingFont: string;
  bodyFont: string;
  buttonShape: string;
  logo: string;
  logoAlt: string;
  favicon: string;
}

interface FormProps {
  crumb: string;
  crumbField: string;
  baseVersion: number;
}

function Hidden(props: FormProps) {
  return (
    <>
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      <input type="hidden" name="baseVersion" value={props.baseVersion} />
    </>
  );
}

function FieldError(props: { id: string; message: string | undefined }) {
  return props.message ? (
    <span className="admin-field-error" id={props.id}>
      {props.message}
    </span>
  ) : null;
}

/**
 * The preview: the storefront's home page in a frame, first with the stored design, then with the form's values each
 * time the form's Preview posts them there. Links inside it stay in the frame (the editor's rules: src/core/siteEditor.ts).
 */
export function DesignPreview(props: { title: string }) {
  return (
    <section className="admin-preview" aria-labelledby="design-preview-heading">
      <h2 id="design-preview-heading">Preview</h2>
      <p className="admin-hint">
        The home page with the values of the form, not saved until you save them: <a href="/">view the store</a>.
      </p>
      <iframe
        name={DESIGN_PREVIEW_FRAME}
        title={`Preview of ${props.title} with this design`}
        src={DESIGN_PREVIEW_PATH}
        {...{ [SITE_EDITOR_FRAME_ATTRIBUTE]: '' }}
      />
    </section>
  );
}

function ColourInputs(props: {
  field: (typeof COLOUR_FIELDS)[number];
  value: { text: string; picker: string };
  was: { text: string; picker: string };
  error: string | undefined;
}) {
  const { name, label } = props.field;
  const errorId = `design-${name}-error`;
  return (
    <div className="admin-colour">
      <label htmlFor={`design-${name}`}>{label}</label>
      <div className="admin-colour-inputs">
        <input
          type="color"
          id={`design-${name}-picker`}
          name={`${name}Picker`}
          defaultValue={props.value.picker}
          aria-label={`${label}: pick`}
        />
        <input
          type="text"
          id={`design-${name}`}
          name={name}
          defaultValue={props.value.text}
          placeholder="The storefront's own"
          spellCheck={false}
          autoComplete="off"
          aria-describedby={props.error ? `${errorId} design-colour-hint` : 'design-colour-hint'}
          {...(props.error ? { 'aria-invalid': true } : {})}
        />
      </div>
      <input type="hidden" name={`${name}Was`} value={props.was.text} />
      <input type="hidden" name={`${name}PickerWas`} value={props.was.picker} />
      <FieldError id={errorId} message={props.error} />
    </div>
  );
}

export function DesignLookForm(
  props: FormProps & {
    values: LookValues;
    /** What the fields were when the form was made (the colours' pickers tell a pick from a typed colour). */
    was: LookValues;
    errors: Readonly<Record<string, string>>;
    contrast: readonly string[];
    /** The system stacks (nothing downloaded) and the fonts that ship with Vitrine (served by the site). */
    fonts: { system: readonly string[]; shipped: readonly string[] };
    shapes: readonly string[];
    images: readonly string[];
  },
) {
  const v = props.values;
  const select = (name: 'headingFont' | 'bodyFont', label: string) => (
    <div>
      <label htmlFor={`design-${name}`}>{label}</label>
      <select id={`design-${name}`} name={name} defaultValue={v[name]} aria-describedby="design-fonts-hint">
        <optgroup label="System fonts">
          {props.fonts.system.map((f) => (
            <option key={f} value={f}>
              {FONT_LABELS[f] ?? f}
            </option>
          ))}
        </optgroup>
        <optgroup label="Fonts served by the store">
          {props.fonts.shipped.map((f) => (
            <option key={f} value={f}>
              {FONT_LABELS[f] ?? f}
            </option>
          ))}
        </optgroup>
      </select>
      <FieldError id={`design-${name}-error`} message={props.errors[name]} />
    </div>
  );
  return (
    <form
      className="admin-form admin-card"
      method="post"
      action={DESIGN_PATH}
      aria-labelledby="design-look-heading"
      {...{ [LIVE_PREVIEW_ATTRIBUTE]: '' }}
    >
      <h2 id="design-look-heading">Colours, fonts and logo</h2>
      <Hidden {...props} />
      <fieldset>
        <legend>Colours</legend>
        <p className="admin-hint" id="design-colour-hint">
          A hex colour (#1f4d3a) or HSL (hsl(155, 43%, 21%)); empty keeps the storefront&apos;s own. Text, links and
          button text need a contrast of 4.5:1 with what they are drawn on (WCAG AA).
        </p>
        {props.contrast.length ? (
          <div className="admin-notice admin-notice-error" role="alert" id="design-contrast">
            <p>Not saved: these colours are too close to be read easily.</p>
            <ul>
              {props.contrast.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {COLOUR_FIELDS.map((field) => (
          <ColourInputs
            key={field.name}
            field={field}
            value={v.colours[field.name]}
            was={props.was.colours[field.name]}
            error={props.errors[field.name]}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Fonts</legend>
        <p className="admin-hint" id="design-fonts-hint">
          System fonts are the visitor&apos;s own (nothing to download; they look a little different on each system).
          The fonts served by the store look the same everywhere; each adds about 20 KB to a visitor&apos;s first page.
        </p>
        {select('headingFont', 'Heading font')}
        {select('bodyFont', 'Text font')}
      </fieldset>
      <fieldset>
        <legend>Buttons</legend>
        {props.shapes.map((shape) => (
          <div className="admin-check" key={shape}>
            <input
              type="radio"
              id={`design-shape-${shape}`}
              name="buttonShape"
              value={shape}
              defaultChecked={v.buttonShape === shape}
            />
            <label htmlFor={`design-shape-${shape}`}>{SHAPE_LABELS[shape] ?? shape}</label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>Logo and icon</legend>
        <div>
          <label htmlFor="design-logo">Logo</label>
          <select id="design-logo" name="logo" defaultValue={v.logo} aria-describedby="design-logo-hint">
            <option value="">None: the shop&apos;s name as text</option>
            {props.images.map((path) => (
              <option key={path} value={path}>
                {path}
              </option>
            ))}
          </select>
          <span className="admin-hint" id="design-logo-hint">
            An image of the site (the images its products and pages use).
          </span>
          <FieldError id="design-logo-error" message={props.errors.logo} />
        </div>
        <div>
          <label htmlFor="design-logoAlt">What the logo says</label>
          <input
            type="text"
            id="design-logoAlt"
            name="logoAlt"
            defaultValue={v.logoAlt}
            maxLength={250}
            aria-describedby={props.errors.logoAlt ? 'design-logoAlt-error' : undefined}
            {...(props.errors.logoAlt ? { 'aria-invalid': true } : {})}
          />
          <FieldError id="design-logoAlt-error" message={props.errors.logoAlt} />
        </div>
        <div>
          <label htmlFor="design-favicon">Browser tab icon</label>
          <select id="design-favicon" name="favicon" defaultValue={v.favicon} aria-describedby="design-favicon-hint">
            <option value="">None</option>
            {props.images.map((path) => (
              <option key={path} value={path}>
                {path}
              </option>
            ))}
          </select>
          <span className="admin-hint" id="design-favicon-hint">
            A square image of 32 × 32 pixels or more is best.
          </span>
        </div>
      </fieldset>
      <div className="admin-actions">
        <button type="submit" className="admin-button" name="intent" value="save">
          Save the design
        </button>
        <button
          type="submit"
          className="admin-button admin-button-quiet"
          name="intent"
          value="preview"
          formAction={DESIGN_PREVIEW_PATH}
          formTarget={DESIGN_PREVIEW_FRAME}
        >
          Preview
        </button>
      </div>
    </form>
  );
}

/** A list that is moved with up and down buttons, each row with its remove button; one form for all its buttons. */
function OrderedList(
  props: FormProps & {
    action: string;
    name: string;
    rows: readonly { key: string; label: ReactNode; title: string }[];
    empty: string;
  },
) {
  if (props.rows.length === 0) return <p className="admin-muted">{props.empty}</p>;
  return (
    <form method="post" action={props.action}>
      <Hidden {...props} />
      <ol className="admin-ordered">
        {props.rows.map((row, i) => (
          <li key={row.key}>
            <span className="admin-ordered-label">{row.label}</span>
            <span className="admin-ordered-buttons">
              <button
                type="submit"
                className="admin-button admin-button-quiet"
                name="op"
                value={`up:${row.key}`}
                disabled={i === 0}
                aria-label={`Move ${row.title} up`}
              >
                Up
              </button>
              <button
                type="submit"
                className="admin-button admin-button-quiet"
                name="op"
                value={`down:${row.key}`}
                disabled={i === props.rows.length - 1}
                aria-label={`Move ${row.title} down`}
              >
                Down
              </button>
              <button
                type="submit"
                className="admin-button admin-button-quiet"
                name="op"
                value={`remove:${row.key}`}
                aria-label={`Remove ${row.title} from the ${props.name}`}
              >
                Remove
              </button>
            </span>
          </li>
        ))}
      </ol>
    </form>
  );
}

export interface MenuChoice {
  id: string;
  title: string;
  kind: 'page' | 'collection';
}

export function MenuEditor(
  props: FormProps & {
    menu: readonly MenuChoice[];
    /** The menu is the storefront's own (the pages shown in navigation and the collections). */
    isDefault: boolean;
    addable: readonly MenuChoice[];
    error: string | undefined;
  },
) {
  return (
    <section className="admin-card" aria-labelledby="design-menu-heading">
      <h2 id="design-menu-heading">Header menu</h2>
      {props.error ? (
        <p className="admin-notice admin-notice-error" role="alert">
          {props.error}
        </p>
      ) : null}
      <p className="admin-muted">
        {props.isDefault
          ? 'The menu shows the home page, the shop and blog, then the pages shown in navigation. Change it to choose its links and their order.'
          : 'The menu shows these links, in this order.'}
      </p>
      <OrderedList
        {...props}
        action={`${DESIGN_PATH}/menu`}
        name="menu"
        rows={props.menu.map((m) => ({
          key: m.id,
          title: m.title,
          label: `${m.title} (${m.kind === 'page' ? 'page' : 'collection'})`,
        }))}
        empty="The menu is empty."
      />
      <form className="admin-inline-form" method="post" action={`${DESIGN_PATH}/menu`}>
        <Hidden {...props} />
        {props.addable.length ? (
          <>
            <label htmlFor="design-menu-add">Add to the menu</label>
            <select id="design-menu-add" name="item">
              {props.addable.map((m) => (
                <option key={m.id} value={m.id}>
                  {`${m.title} (${m.kind})`}
                </option>
              ))}
            </select>
            <button type="submit" className="admin-button" name="op" value="add">
              Add
            </button>
          </>
        ) : null}
        {props.isDefault ? null : (
          <button type="submit" className="admin-button admin-button-quiet" name="op" value="reset">
            Use the storefront&apos;s own menu
          </button>
        )}
      </form>
    </section>
  );
}

export interface FooterRow {
  label: string;
  /** '/about' or https://… */
  href: string;
}

export function FooterEditor(
  props: FormProps & {
    links: readonly FooterRow[];
    values: { label: string; link: string };
    errors: Readonly<Record<string, string>>;
    pagePaths: readonly string[];
  },
) {
  return (
    <section className="admin-card" aria-labelledby="design-footer-heading">
      <h2 id="design-footer-heading">Footer links</h2>
      <OrderedList
        {...props}
        action={`${DESIGN_PATH}/footer`}
        name="footer"
        rows={props.links.map((l, i) => ({ key: String(i), title: l.label, label: `${l.label} → ${l.href}` }))}
        empty="The footer has no links."
      />
      <form className="admin-form" method="post" action={`${DESIGN_PATH}/footer`} aria-label="Add a footer link">
        <Hidden {...props} />
        <div>
          <label htmlFor="design-footer-label">Link text</label>
          <input
            type="text"
            id="design-footer-label"
            name="label"
            maxLength={60}
            defaultValue={props.values.label}
            aria-describedby={props.errors.label ? 'design-footer-label-error' : undefined}
            {...(props.errors.label ? { 'aria-invalid': true } : {})}
          />
          <FieldError id="design-footer-label-error" message={props.errors.label} />
        </div>
        <div>
          <label htmlFor="design-footer-link">Address</label>
          <input
            type="text"
            id="design-footer-link"
            name="link"
            list="design-footer-pages"
            defaultValue={props.values.link}
            spellCheck={false}
            aria-describedby={
              props.errors.link ? 'design-footer-link-error design-footer-link-hint' : 'design-footer-link-hint'
            }
            {...(props.errors.link ? { 'aria-invalid': true } : {})}
          />
          <datalist id="design-footer-pages">
            {props.pagePaths.map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
          <span className="admin-hint" id="design-footer-link-hint">
            A page of this site (/about) or another website (example.com).
          </span>
          <FieldError id="design-footer-link-error" message={props.errors.link} />
        </div>
        <div>
          <button type="submit" className="admin-button" name="op" value="add">
            Add the link
          </button>
        </div>
      </form>
    </section>
  );
}

/** A new logo uploaded from the computer (multipart: it cannot be part of the look's form). */
export function LogoUploadForm(props: FormProps & { maxSize: string; altText: string; error: string | undefined }) {
  return (
    <form
      className="admin-form admin-card"
      method="post"
      action={`${DESIGN_PATH}/logo`}
      encType="multipart/form-data"
      aria-labelledby="design-upload-heading"
    >
      <h2 id="design-upload-heading">Upload a new logo</h2>
      <Hidden {...props} />
      <div>
        <label htmlFor="design-logo-file">Logo image</label>
        <input
          id="design-logo-file"
          type="file"
          name="file"
          accept="image/jpeg,image/png,image/webp,image/gif,image/tiff,image/avif"
          required
          aria-describedby={props.error ? 'design-logo-file-error design-logo-file-hint' : 'design-logo-file-hint'}
          {...(props.error ? { 'aria-invalid': true } : {})}
        />
        <span className="admin-hint" id="design-logo-file-hint">
          {`JPEG, PNG, WebP, GIF, TIFF or AVIF, up to ${props.maxSize}. It joins the site's images (Media), without its EXIF data.`}
        </span>
        <FieldError id="design-logo-file-error" message={props.error} />
      </div>
      <div>
        <label htmlFor="design-upload-alt">What the new logo says</label>
        <input type="text" id="design-upload-alt" name="logoAlt" defaultValue={props.altText} maxLength={250} />
      </div>
      <div>
        <button type="submit" className="admin-button">
          Upload and use as the logo
        </button>
      </div>
    </form>
  );
}
