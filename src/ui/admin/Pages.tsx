/**
 * The pages editor's parts (/admin/pages, issue 26): the pages in navigation order with a move up / down form per
 * row, the collections (rename, move), the new-page form; a page's editor — its settings, its blocks each with its
 * fields and its move / remove buttons, the add-a-block form — beside a preview frame where 'Preview' posts the unsaved
 * draft (the real storefront render), and the delete form. Plain forms: everything works without JavaScript.
 */
import type { ReactNode } from 'react';
import { SITE_EDITOR_FRAME_ATTRIBUTE } from '../../core/siteEditor';
import {
  GALLERY_ACTIVE_ALIGNMENTS,
  GALLERY_ASPECT_RATIOS,
  GALLERY_DESIGNS,
  GALLERY_FLAGS,
  GALLERY_LIGHTBOX_THEMES,
  GALLERY_META_POSITIONS,
  GALLERY_NUMBER_OPTIONS,
  type GalleryNumberOption,
} from '../../core/gallery';
import { VIDEO_EMBED_MAX_LENGTH } from '../../core/videoEmbed';
import type { PublicationStatus } from '../../core/publishing';
import { AdminTableBox } from './AdminFrame';
import { ConfirmDelete } from './ConfirmDelete';
import { StatusBadge, StatusFields, type StatusFieldsProps } from './StatusFields';

export const PAGES_PATH = '/admin/pages';
export const COLLECTIONS_PATH = '/admin/collections';
export const pagePath = (id: string): string => `${PAGES_PATH}/${id}`;
export const PREVIEW_FRAME = 'page-preview';

interface FormProps {
  crumb: string;
  crumbField: string;
}

function Hidden(props: FormProps & { version: number }) {
  return (
    <>
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      <input type="hidden" name="baseVersion" value={props.version} />
    </>
  );
}

export interface PageRow {
  id: string;
  title: string;
  path: string;
  showInNavigation: boolean;
  locked: boolean;
  blocks: number;
  /** The status the owner sees now (a scheduled page whose time has come is Published). */
  status: PublicationStatus;
}

export interface CollectionRow {
  id: string;
  title: string;
  slug: string;
  type: string;
}

/** A small form with one button (move up / down). */
function MoveButton(
  props: FormProps & { version: number; action: string; direction: 'up' | 'down'; name: string; disabled: boolean },
) {
  return (
    <form method="post" action={props.action} className="admin-inline-form">
      <Hidden {...props} />
      <input type="hidden" name="direction" value={props.direction} />
      <button
        type="submit"
        className="admin-button admin-button-quiet"
        disabled={props.disabled}
        aria-label={`${props.direction === 'up' ? 'Move up' : 'Move down'}: ${props.name}`}
      >
        {props.direction === 'up' ? 'Move up' : 'Move down'}
      </button>
    </form>
  );
}

export function PagesTable(
  props: FormProps & { rows: readonly PageRow[]; version: number; canEdit: boolean; menuSet: boolean },
) {
  if (props.rows.length === 0) return <p className="admin-muted">No pages yet: create the first one below.</p>;
  return (
    <AdminTableBox label="Pages">
      <table className="admin-table admin-pages-table">
        <caption className="admin-sr-only">{props.menuSet ? 'Pages' : 'Pages in navigation order'}</caption>
        <thead>
          <tr>
            <th scope="col">Page</th>
            <th scope="col">URL</th>
            <th scope="col">Shown</th>
            {props.canEdit ? <th scope="col">Order</th> : null}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, i) => (
            <tr key={row.id}>
              <th scope="row">
                <a href={pagePath(row.id)}>{row.title}</a> <StatusBadge status={row.status} />
              </th>
              <td>
                <code>{row.path}</code>
              </td>
              <td>
                {row.showInNavigation ? 'In navigation' : <span className="admin-badge">Hidden from navigation</span>}
                {row.locked ? <span className="admin-badge">Password</span> : null}
              </td>
              {props.canEdit ? (
                <td className="admin-nowrap">
                  <MoveButton
                    {...props}
                    action={`${pagePath(row.id)}/move`}
                    direction="up"
                    name={row.title}
                    disabled={i === 0}
                  />
                  <MoveButton
                    {...props}
                    action={`${pagePath(row.id)}/move`}
                    direction="down"
                    name={row.title}
                    disabled={i === props.rows.length - 1}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </AdminTableBox>
  );
}

export function CollectionsTable(
  props: FormProps & { rows: readonly CollectionRow[]; version: number; canEdit: boolean },
) {
  if (props.rows.length === 0) return <p className="admin-muted">No collections.</p>;
  return (
    <AdminTableBox label="Collections">
      <table className="admin-table">
        <caption className="admin-sr-only">Collections in navigation order</caption>
        <thead>
          <tr>
            <th scope="col">Collection</th>
            <th scope="col">URL</th>
            {props.canEdit ? <th scope="col">Rename</th> : null}
            {props.canEdit ? <th scope="col">Order</th> : null}
            {props.canEdit ? <th scope="col">Delete</th> : null}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, i) => (
            <tr key={row.id}>
              <th scope="row">{row.title}</th>
              <td>
                <code>{`/${row.slug}`}</code>
              </td>
              {props.canEdit ? (
                <td>
                  <form method="post" action={`${COLLECTIONS_PATH}/${row.id}`} className="admin-inline-form">
                    <Hidden {...props} />
                    <label htmlFor={`collection-${row.id}`} className="admin-sr-only">
                      {`New name of ${row.title}`}
                    </label>
                    <input
                      id={`collection-${row.id}`}
                      name="title"
                      type="text"
                      required
                      maxLength={200}
                      defaultValue={row.title}
                    />
                    <button
                      type="submit"
                      className="admin-button admin-button-quiet"
                      aria-label={`Rename: ${row.title}`}
                    >
                      Rename
                    </button>
                  </form>
                </td>
              ) : null}
              {props.canEdit ? (
                <td className="admin-nowrap">
                  <MoveButton
                    {...props}
                    action={`${COLLECTIONS_PATH}/${row.id}/move`}
                    direction="up"
                    name={row.title}
                    disabled={i === 0}
                  />
                  <MoveButton
                    {...props}
                    action={`${COLLECTIONS_PATH}/${row.id}/move`}
                    direction="down"
                    name={row.title}
                    disabled={i === props.rows.length - 1}
                  />
                </td>
              ) : null}
              {props.canEdit ? (
                <td>
                  <a href={`${COLLECTIONS_PATH}/${row.id}/delete`} aria-label={`Delete: ${row.title}`}>
                    Delete
                  </a>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </AdminTableBox>
  );
}

/** A field's message under it (and the id its input's aria-describedby names). */
function FieldError(props: { id: string; message: string | undefined }) {
  return props.message ? (
    <span className="admin-field-error" id={`${props.id}-error`}>
      {props.message}
    </span>
  ) : null;
}

/** An input's accessible parts: its id, its error's id and aria-invalid when it has one. */
const described = (id: string, message: string | undefined) =>
  message ? { id, 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : { id };

export function CreatePageForm(
  props: FormProps & {
    version: number;
    values?: { title: string; path: string };
    problems?: Record<string, string>;
    /** The new page's Status (its choices: the role's for a new page; chosen: the role's default). */
    status: Omit<StatusFieldsProps, 'problems'>;
  },
) {
  const problems = props.problems ?? {};
  return (
    <form className="admin-form admin-card" method="post" action={PAGES_PATH} aria-labelledby="new-page-heading">
      <h2 id="new-page-heading">New page</h2>
      <Hidden {...props} />
      <div>
        <label htmlFor="new-title">Title</label>
        <input
          {...described('new-title', problems.title)}
          name="title"
          type="text"
          required
          maxLength={200}
          defaultValue={props.values?.title}
        />
        <FieldError id="new-title" message={problems.title} />
      </div>
      <div>
        <label htmlFor="new-path">URL</label>
        <input
          {...described('new-path', problems.path)}
          name="path"
          type="text"
          required
          maxLength={200}
          placeholder="/about"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={props.values?.path}
        />
        <span className="admin-hint">Lower-case letters, digits and dashes, like /about or /visit-us.</span>
        <FieldError id="new-path" message={problems.path} />
      </div>
      <div className="admin-check">
        <input id="new-nav" name="showInNavigation" type="checkbox" value="yes" defaultChecked />
        <label htmlFor="new-nav">Show in navigation</label>
      </div>
      <StatusFields {...props.status} problems={problems} nested />
      <div>
        <button type="submit" className="admin-button">
          Create page
        </button>
      </div>
    </form>
  );
}

// ---------------------------------------------------------------- a page's editor

/** A page's block, as the editor shows it (the site file's block). */
export type EditorBlock = { type: string } & Record<string, unknown>;

export interface EditorPage {
  id: string;
  title: string;
  path: string;
  showInNavigation: boolean;
  locked: boolean;
  blocks: readonly EditorBlock[];
}

export interface EditorChoices {
  images: readonly string[];
  productCollections: readonly { id: string; title: string }[];
  blogCollections: readonly { id: string; title: string }[];
  products: readonly { id: string; name: string }[];
  forms: readonly { id: string; name: string; kind: string }[];
  /** The kinds the add form offers, with their names. */
  addable: readonly { kind: string; name: string }[];
  blockNames: Readonly<Record<string, string>>;
}

interface BlockProps {
  i: number;
  block: EditorBlock;
  choices: EditorChoices;
  problems: Readonly<Record<string, string>>;
}

const f = (i: number, name: string) => `b${i}.${name}`;
const domId = (name: string) => `field-${name.replace(/\./g, '-')}`;

function TextField(props: {
  name: string;
  label: string;
  value: string;
  problems: Readonly<Record<string, string>>;
  required?: boolean;
  maxLength?: number;
  hint?: string;
  multiline?: boolean;
}) {
  const id = domId(props.name);
  const message = props.problems[props.name];
  const common = {
    ...described(id, message),
    name: props.name,
    defaultValue: props.value,
    required: props.required,
    maxLength: props.maxLength,
  };
  return (
    <div>
      <label htmlFor={id}>{props.label}</label>
      {props.multiline ? <textarea {...common} rows={5} /> : <input {...common} type="text" />}
      {props.hint ? <span className="admin-hint">{props.hint}</span> : null}
      <FieldError id={id} message={message} />
    </div>
  );
}

function NumberField(props: {
  name: string;
  label: string;
  value: number | undefined;
  min: number;
  max: number;
  step?: number;
  problems: Readonly<Record<string, string>>;
  hint?: string;
}) {
  const id = domId(props.name);
  const message = props.problems[props.name];
  return (
    <div>
      <label htmlFor={id}>{props.label}</label>
      <input
        {...described(id, message)}
        name={props.name}
        type="number"
        inputMode="decimal"
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        defaultValue={props.value}
      />
      {props.hint ? <span className="admin-hint">{props.hint}</span> : null}
      <FieldError id={id} message={message} />
    </div>
  );
}

function Choice(props: {
  name: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  problems: Readonly<Record<string, string>>;
}) {
  const id = domId(props.name);
  const message = props.problems[props.name];
  const known = props.options.some((o) => o.value === props.value);
  return (
    <div>
      <label htmlFor={id}>{props.label}</label>
      <select {...described(id, message)} name={props.name} defaultValue={props.value}>
        {known ? null : <option value={props.value}>{props.value || '—'}</option>}
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={id} message={message} />
    </div>
  );
}

const words = (value: string) => value.replace(/-/g, ' ');
const asOptions = (values: readonly string[]) => values.map((v) => ({ value: v, label: words(v) }));

/** An image's alt text and focal point (in %). */
function ImageFields(
  props: BlockProps & {
    image: { file?: string; altText: string; focalPoint: { x: number; y: number } };
    withFile: boolean;
  },
) {
  const { i, problems } = props;
  return (
    <>
      {props.withFile ? (
        <Choice
          name={f(i, 'file')}
          label="Image file"
          value={props.image.file ?? ''}
          options={props.choices.images.map((file) => ({ value: file, label: file }))}
          problems={problems}
        />
      ) : null}
      <TextField
        name={f(i, 'alt')}
        label="Alt text"
        value={props.image.altText}
        maxLength={250}
        hint="What the image shows, for people who cannot see it (empty: a decorative image)."
        problems={problems}
      />
      <div className="admin-field-pair">
        <NumberField
          name={f(i, 'focusX')}
          label="Focal point, across (%)"
          value={Math.round(props.image.focalPoint.x * 1000) / 10}
          min={0}
          max={100}
          step={0.1}
          problems={problems}
        />
        <NumberField
          name={f(i, 'focusY')}
          label="Focal point, down (%)"
          value={Math.round(props.image.focalPoint.y * 1000) / 10}
          min={0}
          max={100}
          step={0.1}
          problems={problems}
        />
      </div>
    </>
  );
}

const GALLERY_NUMBER_LABELS: Readonly<Record<GalleryNumberOption, string>> = {
  autoplayDelay: 'Autoplay delay (seconds)',
  thumbnailStripHeight: 'Thumbnail strip height (px)',
  margin: 'Margin (px)',
  thumbnailsPerRow: 'Thumbnails per row',
  padding: 'Padding (px)',
  maxWidth: 'Thumbnail max width (px)',
};

function BlockFields(props: BlockProps) {
  const { i, block, choices, problems } = props;
  const str = (key: string) => (typeof block[key] === 'string' ? (block[key] as string) : '');
  const num = (key: string) => (typeof block[key] === 'number' ? (block[key] as number) : undefined);
  switch (block.type) {
    case 'heading':
      return (
        <>
          <TextField
            name={f(i, 'text')}
            label="Heading"
            value={str('text')}
            required
            maxLength={200}
            problems={problems}
          />
          <Choice
            name={f(i, 'level')}
            label="Level"
            value={String(num('level') ?? 2)}
            options={[
              { value: '1', label: 'Heading 1 (the page title)' },
              { value: '2', label: 'Heading 2' },
              { value: '3', label: 'Heading 3' },
            ]}
            problems={problems}
          />
        </>
      );
    case 'text':
      return (
        <TextField
          name={f(i, 'text')}
          label="Text"
          value={str('text')}
          maxLength={20_000}
          multiline
          problems={problems}
        />
      );
    case 'image':
      return (
        <>
          <ImageFields {...props} image={block.image as never} withFile />
          <TextField
            name={f(i, 'link')}
            label="Link (optional)"
            value={str('link')}
            hint="A page of this site, like /shop."
            problems={problems}
          />
        </>
      );
    case 'productGrid':
    case 'posts': {
      const collections = block.type === 'posts' ? choices.blogCollections : choices.productCollections;
      return (
        <>
          <Choice
            name={f(i, 'collectionId')}
            label={block.type === 'posts' ? 'Blog' : 'Collection'}
            value={str('collectionId')}
            options={collections.map((c) => ({ value: c.id, label: c.title }))}
            problems={problems}
          />
          <NumberField
            name={f(i, 'limit')}
            label={block.type === 'posts' ? 'Posts shown' : 'Products shown (empty: all)'}
            value={num('limit')}
            min={1}
            max={block.type === 'posts' ? 50 : 100}
            problems={problems}
          />
        </>
      );
    }
    case 'product':
      return (
        <Choice
          name={f(i, 'productId')}
          label="Product"
          value={str('productId')}
          options={choices.products.map((p) => ({ value: p.id, label: p.name }))}
          problems={problems}
        />
      );
    case 'form':
    case 'productWaitlist':
      return (
        <>
          <Choice
            name={f(i, 'formId')}
            label="Form"
            value={str('formId')}
            options={choices.forms
              .filter((form) => (block.type === 'form') === (form.kind !== 'waitlist'))
              .map((form) => ({ value: form.id, label: form.name }))}
            problems={problems}
          />
          {block.type === 'productWaitlist' ? (
            <Choice
              name={f(i, 'productId')}
              label="The product that is coming (optional)"
              value={str('productId')}
              options={[{ value: '', label: 'None' }, ...choices.products.map((p) => ({ value: p.id, label: p.name }))]}
              problems={problems}
            />
          ) : null}
        </>
      );
    case 'video': {
      const oembed = (block.oembed as { html?: string; providerName?: string } | undefined) ?? {};
      return (
        <>
          <TextField
            name={f(i, 'title')}
            label="Title"
            value={str('title')}
            required
            maxLength={200}
            hint="What the video is: the play button says 'Play video: {title}'."
            problems={problems}
          />
          <TextField
            name={f(i, 'url')}
            label="Video address"
            value={str('url')}
            required
            maxLength={2083}
            hint="Its page at the provider (https://…): where the overlay leads without JavaScript."
            problems={problems}
          />
          <TextField
            name={f(i, 'embed')}
            label="Embed code"
            value={oembed.html ?? ''}
            maxLength={VIDEO_EMBED_MAX_LENGTH}
            multiline
            hint="The provider's <iframe …></iframe> (Share → Embed). Empty: made from a YouTube or Vimeo address."
            problems={problems}
          />
          <TextField
            name={f(i, 'provider')}
            label="Provider (optional)"
            value={oembed.providerName ?? ''}
            maxLength={100}
            problems={problems}
          />
          <ImageFields {...props} image={block.overlay as never} withFile />
        </>
      );
    }
    case 'gallery':
      return <GalleryFields {...props} />;
    default:
      return <p className="admin-muted">This block has no settings here.</p>;
  }
}

function GalleryFields(props: BlockProps) {
  const { i, block, problems } = props;
  const flags = (block.flags as readonly string[] | undefined) ?? [];
  const images =
    (block.images as readonly { file: string; altText: string; title?: string; description?: string }[]) ?? [];
  const str = (key: string, fallback = '') => (typeof block[key] === 'string' ? (block[key] as string) : fallback);
  return (
    <>
      <TextField
        name={f(i, 'label')}
        label="Name (for screen readers)"
        value={str('label')}
        maxLength={100}
        problems={problems}
      />
      <div className="admin-field-pair">
        <Choice
          name={f(i, 'design')}
          label="Design"
          value={str('design', 'grid')}
          options={asOptions(GALLERY_DESIGNS)}
          problems={problems}
        />
        <Choice
          name={f(i, 'aspectRatio')}
          label="Aspect ratio"
          value={str('aspectRatio')}
          options={[{ value: '', label: 'Each image its own' }, ...asOptions(GALLERY_ASPECT_RATIOS)]}
          problems={problems}
        />
        <Choice
          name={f(i, 'lightboxTheme')}
          label="Lightbox theme"
          value={str('lightboxTheme', 'dark')}
          options={asOptions(GALLERY_LIGHTBOX_THEMES)}
          problems={problems}
        />
        <Choice
          name={f(i, 'metaPosition')}
          label="Caption position"
          value={str('metaPosition', 'bottom-left')}
          options={asOptions(GALLERY_META_POSITIONS)}
          problems={problems}
        />
        <Choice
          name={f(i, 'activeAlignment')}
          label="Active slide alignment"
          value={str('activeAlignment', 'center')}
          options={asOptions(GALLERY_ACTIVE_ALIGNMENTS)}
          problems={problems}
        />
      </div>
      <fieldset className="admin-flags">
        <legend>Options</legend>
        <input type="hidden" name={f(i, 'flagsShown')} value="yes" />
        {GALLERY_FLAGS.map((flag) => (
          <div className="admin-check" key={flag}>
            <input
              id={domId(`${f(i, 'flags')}.${flag}`)}
              name={f(i, 'flags')}
              type="checkbox"
              value={flag}
              defaultChecked={flags.includes(flag)}
            />
            <label htmlFor={domId(`${f(i, 'flags')}.${flag}`)}>{words(flag)}</label>
          </div>
        ))}
      </fieldset>
      <div className="admin-field-pair">
        {(Object.keys(GALLERY_NUMBER_OPTIONS) as GalleryNumberOption[]).map((option) => (
          <NumberField
            key={option}
            name={f(i, option)}
            label={GALLERY_NUMBER_LABELS[option]}
            value={
              typeof block[option] === 'number' ? (block[option] as number) : GALLERY_NUMBER_OPTIONS[option].default
            }
            min={GALLERY_NUMBER_OPTIONS[option].min}
            max={GALLERY_NUMBER_OPTIONS[option].max}
            step={option === 'autoplayDelay' ? 0.5 : 1}
            problems={problems}
          />
        ))}
      </div>
      <details className="admin-gallery-images">
        <summary>{`Images (${images.length}): alt texts and captions`}</summary>
        {images.map((image, j) => (
          <fieldset key={j} className="admin-flags">
            <legend>{`Image ${j + 1}: ${image.file}`}</legend>
            <TextField
              name={`b${i}.img${j}.alt`}
              label="Alt text"
              value={image.altText}
              maxLength={250}
              problems={problems}
            />
            <TextField
              name={`b${i}.img${j}.title`}
              label="Caption title"
              value={image.title ?? ''}
              maxLength={200}
              problems={problems}
            />
            <TextField
              name={`b${i}.img${j}.description`}
              label="Caption text"
              value={image.description ?? ''}
              maxLength={1000}
              problems={problems}
            />
          </fieldset>
        ))}
      </details>
    </>
  );
}

/** A block's move and remove buttons (they save the form with the change). */
function BlockActions(props: { i: number; count: number; name: string }) {
  const label = `block ${props.i + 1} (${props.name})`;
  return (
    <div className="admin-actions">
      <button
        type="submit"
        name="op"
        value={`up:${props.i}`}
        aria-label={`Move up: ${label}`}
        className="admin-button admin-button-quiet"
        disabled={props.i === 0}
      >
        Move up
      </button>
      <button
        type="submit"
        name="op"
        value={`down:${props.i}`}
        aria-label={`Move down: ${label}`}
        className="admin-button admin-button-quiet"
        disabled={props.i === props.count - 1}
      >
        Move down
      </button>
      <button
        type="submit"
        name="op"
        value={`remove:${props.i}`}
        aria-label={`Remove: ${label}`}
        className="admin-button admin-button-quiet admin-button-remove"
      >
        Remove
      </button>
    </div>
  );
}

export interface PageEditorProps extends FormProps {
  page: EditorPage;
  version: number;
  choices: EditorChoices;
  /** Field name → its message. */
  problems: Readonly<Record<string, string>>;
  canEdit: boolean;
  /** The Status fieldset (absent: the home page, always published). */
  status?: Omit<StatusFieldsProps, 'problems'>;
  /** The block to show first after an action (its fieldset gets the focus target id). */
  notice?: ReactNode;
  /** The add form as typed (a refused new block). */
  adding?: { kind: string; video: { url: string; title: string; embed: string } };
}

/** The page editor: the form (settings, blocks, add) and, beside it, the preview frame. */
export function PageEditor(props: PageEditorProps) {
  const { page, problems, choices } = props;
  const action = pagePath(page.id);
  return (
    <div className="admin-editor">
      <form className="admin-form admin-editor-form" method="post" action={action} id="page-form">
        <Hidden {...props} />
        <input type="hidden" name="blockCount" value={page.blocks.length} />
        <input type="hidden" name="navigationShown" value="yes" />
        <div className="admin-editor-bar">
          {props.canEdit ? (
            <button type="submit" name="op" value="save" className="admin-button">
              Save
            </button>
          ) : null}
          <button
            type="submit"
            name="op"
            value="preview"
            className="admin-button admin-button-quiet"
            formAction={`${action}/preview`}
            formTarget={PREVIEW_FRAME}
          >
            Preview
          </button>
          <span className="admin-hint">
            Preview shows your unsaved changes in the frame; Save keeps them with the status chosen below.
          </span>
        </div>
        {props.status ? (
          <StatusFields {...props.status} problems={problems} />
        ) : page.path === '/' ? (
          <p className="admin-hint">The home page (/) is always published.</p>
        ) : null}
        <fieldset className="admin-card">
          <legend>Page</legend>
          <TextField name="title" label="Title" value={page.title} required maxLength={200} problems={problems} />
          <TextField
            name="path"
            label="URL"
            value={page.path}
            required
            maxLength={200}
            hint="Lower-case letters, digits and dashes, like /about."
            problems={problems}
          />
          <div className="admin-check">
            <input
              id="field-showInNavigation"
              name="showInNavigation"
              type="checkbox"
              value="yes"
              defaultChecked={page.showInNavigation}
            />
            <label htmlFor="field-showInNavigation">Show in navigation</label>
          </div>
          <TextField
            name="password"
            label={page.locked ? 'New password (empty: keep the current one)' : 'Password (optional)'}
            value=""
            maxLength={256}
            hint="Visitors must type it to see the page. It is stored as a hash and never shown."
            problems={problems}
          />
          {page.locked ? (
            <div className="admin-check">
              <input id="field-removePassword" name="removePassword" type="checkbox" value="yes" />
              <label htmlFor="field-removePassword">Remove the password (open the page to everyone)</label>
            </div>
          ) : null}
        </fieldset>
        <h2 id="blocks-heading">Blocks</h2>
        {page.blocks.length === 0 ? <p className="admin-muted">No blocks yet: add one below.</p> : null}
        <ol className="admin-blocks" aria-labelledby="blocks-heading">
          {page.blocks.map((block, i) => {
            const name = choices.blockNames[block.type] ?? block.type;
            return (
              <li key={i}>
                <fieldset className="admin-card" id={`block-${i + 1}`}>
                  <legend>{`Block ${i + 1}: ${name}`}</legend>
                  <BlockFields i={i} block={block} choices={choices} problems={problems} />
                  {props.canEdit ? <BlockActions i={i} count={page.blocks.length} name={name} /> : null}
                </fieldset>
              </li>
            );
          })}
        </ol>
        {props.canEdit ? (
          <fieldset className="admin-card">
            <legend>Add a block</legend>
            <div className="admin-inline-form">
              <label htmlFor="field-addKind">Kind</label>
              <select id="field-addKind" name="addKind" defaultValue={props.adding?.kind ?? 'text'}>
                {choices.addable.map((a) => (
                  <option key={a.kind} value={a.kind}>
                    {a.name}
                  </option>
                ))}
              </select>
              <button type="submit" name="op" value="add" className="admin-button admin-button-quiet">
                Add block
              </button>
            </div>
            <span className="admin-hint">
              It is added at the end (with your other changes saved); move it up from there.
            </span>
            <fieldset>
              <legend>A video block needs</legend>
              <TextField
                name="addVideo.url"
                label="Video address"
                value={props.adding?.video.url ?? ''}
                maxLength={2083}
                hint="Its page at the provider, like https://www.youtube.com/watch?v=… or https://vimeo.com/…"
                problems={problems}
              />
              <TextField
                name="addVideo.title"
                label="Video title"
                value={props.adding?.video.title ?? ''}
                maxLength={200}
                problems={problems}
              />
              <TextField
                name="addVideo.embed"
                label="Embed code (not needed for YouTube and Vimeo)"
                value={props.adding?.video.embed ?? ''}
                maxLength={VIDEO_EMBED_MAX_LENGTH}
                multiline
                hint="Another provider's <iframe …></iframe>, from its Share → Embed. The overlay is the site's first image until you choose one."
                problems={problems}
              />
            </fieldset>
          </fieldset>
        ) : null}
      </form>
      <section className="admin-preview" aria-labelledby="preview-heading">
        <h2 id="preview-heading">Preview</h2>
        <iframe
          name={PREVIEW_FRAME}
          title={`Preview of ${page.title}`}
          src={`${action}/preview`}
          {...{ [SITE_EDITOR_FRAME_ATTRIBUTE]: '' }}
        />
      </section>
    </div>
  );
}

export function DeletePageForm(props: FormProps & { page: { id: string; title: string }; version: number }) {
  return (
    <form
      className="admin-form admin-card"
      method="post"
      action={`${pagePath(props.page.id)}/delete`}
      aria-labelledby="delete-heading"
    >
      <h2 id="delete-heading">Delete this page</h2>
      <Hidden {...props} />
      <p>
        The page leaves the site and its navigation. The versions keep it: restoring an earlier version brings it back.
      </p>
      <ConfirmDelete name={props.page.title} button="Delete page" />
    </form>
  );
}

/** The problems of a refused save, above the form: each a link to its field. */
export function ProblemList(props: { problems: readonly { field: string; label: string; message: string }[] }) {
  if (props.problems.length === 0) return null;
  return (
    <div className="admin-notice admin-notice-error" role="alert">
      <p>Not saved: please correct these.</p>
      <ul>
        {props.problems.map((p, i) => (
          <li key={i}>
            <a href={`#${domId(p.field)}`}>{`${p.label}: ${p.message}`}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}
