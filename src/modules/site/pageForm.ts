/**
 * The page editor's form (issue 26, /admin/pages/{id}) read back into a draft page: the page's settings and each
 * block's fields over the stored block (what the form does not show — a video's embed, a gallery's files — stays as
 * stored), checked by the site file's own page schema, each problem named by the form field it belongs to. Also the
 * form's block actions (add, move up or down, remove) and a new block of each kind. No I/O: the routes read and save.
 */
import { GALLERY_FLAGS, GALLERY_NUMBER_OPTIONS, type GalleryNumberOption } from '../../core/gallery';
import { checkPagePath } from '../../core/pageEditor';
import { err, ok, type Result } from '../../core/result';
import { embedFromVideoUrl } from '../../core/videoEmbed';
import { galleryBlockSchema, pageSchema, videoBlockSchema, type Block, type Collection, type Page } from './schema';

export type FormBody = Readonly<Record<string, unknown>>;

/** A problem of the draft, with the form field it belongs to ('' for the page as a whole). */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface PageDraft {
  /** The draft, as the page would be saved (the URL normalised when valid, else as typed). */
  page: Page;
  /** What the form says of the password: keep it, set a new one (as typed), or remove it. */
  password: { keep: true } | { set: string } | { remove: true };
  problems: FieldProblem[];
}

/** The block kinds the editor can add (a video with its address, title and, but for YouTube and Vimeo, embed code). */
export const ADDABLE_BLOCKS = [
  'heading',
  'text',
  'image',
  'gallery',
  'video',
  'productGrid',
  'product',
  'form',
  'productWaitlist',
  'posts',
] as const;
export type AddableBlock = (typeof ADDABLE_BLOCKS)[number];

export const BLOCK_NAMES: Readonly<Record<Block['type'], string>> = {
  heading: 'Heading',
  text: 'Text',
  image: 'Image',
  gallery: 'Gallery',
  productGrid: 'Product grid',
  product: 'Product',
  form: 'Form',
  productWaitlist: 'Product waitlist',
  posts: 'Blog posts',
  video: 'Video',
};

/** The form field names of block `i`'s fields (`b3.text`), and of its gallery image `j` (`b3.img0.alt`). */
export const blockField = (i: number, name: string): string => `b${i}.${name}`;
export const imageField = (i: number, j: number, name: string): string => `b${i}.img${j}.${name}`;

const one = (body: FormBody, name: string): string | undefined => {
  const value = body[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
};
const many = (body: FormBody, name: string): string[] => {
  const value = body[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
};
const checked = (body: FormBody, name: string): boolean => one(body, name) === 'yes';

/** A focal point's coordinate from a percentage field (0–100, as the form shows it). */
function percent(body: FormBody, name: string, stored: number, problems: FieldProblem[]): number {
  const raw = one(body, name);
  if (raw === undefined || raw.trim() === '') return stored;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 100) {
    problems.push({ field: name, message: 'must be a number from 0 to 100 (%)' });
    return stored;
  }
  return Math.round(value * 10) / 1000;
}

/** A whole number from a field; '' gives `empty`. */
function whole(body: FormBody, name: string, stored: number | undefined, problems: FieldProblem[]) {
  const raw = one(body, name);
  if (raw === undefined) return stored;
  if (raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) {
    problems.push({ field: name, message: 'must be a whole number' });
    return stored;
  }
  return value;
}

/** A gallery's number option: its range is the schema's; a non-number is a problem. */
function galleryNumber(
  body: FormBody,
  i: number,
  option: GalleryNumberOption,
  stored: number,
  problems: FieldProblem[],
): number {
  const name = blockField(i, option);
  const raw = one(body, name);
  if (raw === undefined || raw.trim() === '') return stored;
  const value = Number(raw);
  const { min, max } = GALLERY_NUMBER_OPTIONS[option];
  if (!Number.isFinite(value) || value < min || value > max) {
    problems.push({ field: name, message: `must be a number from ${min} to ${max}` });
    return stored;
  }
  return value;
}

/** Block `i` as the form changes it: its fields over the stored block. */
function blockFromForm(body: FormBody, i: number, stored: Block, problems: FieldProblem[]): Block {
  const text = (name: string, fallback: string) => one(body, blockField(i, name)) ?? fallback;
  switch (stored.type) {
    case 'heading':
      return { ...stored, text: text('text', stored.text).trim(), level: levelOf(text('level', String(stored.level))) };
    case 'text':
      return { ...stored, text: text('text', stored.text) };
    case 'image': {
      const link = text('link', stored.link ?? '').trim();
      const { link: _old, ...rest } = stored;
      return {
        ...rest,
        image: {
          ...stored.image,
          file: text('file', stored.image.file),
          altText: text('alt', stored.image.altText),
          focalPoint: {
            x: percent(body, blockField(i, 'focusX'), stored.image.focalPoint.x, problems),
            y: percent(body, blockField(i, 'focusY'), stored.image.focalPoint.y, problems),
          },
        },
        ...(link ? { link } : {}),
      };
    }
    case 'productGrid': {
      const limit = whole(body, blockField(i, 'limit'), stored.limit, problems);
      const { limit: _old, ...rest } = stored;
      return { ...rest, collectionId: text('collectionId', stored.collectionId), ...(limit ? { limit } : {}) };
    }
    case 'posts':
      return {
        ...stored,
        collectionId: text('collectionId', stored.collectionId),
        limit: whole(body, blockField(i, 'limit'), stored.limit, problems) ?? stored.limit,
      };
    case 'product':
      return { ...stored, productId: text('productId', stored.productId) };
    case 'form':
      return { ...stored, formId: text('formId', stored.formId) };
    case 'productWaitlist': {
      const productId = text('productId', stored.productId ?? '');
      const { productId: _old, ...rest } = stored;
      return { ...rest, formId: text('formId', stored.formId), ...(productId ? { productId } : {}) };
    }
    case 'video': {
      const title = text('title', stored.title).trim();
      const url = text('url', stored.url).trim();
      const typedEmbed = text('embed', stored.oembed.html).trim();
      // An emptied embed code is made again from the address when the provider's player follows it (YouTube, Vimeo).
      const made = typedEmbed === '' ? embedFromVideoUrl(url, title) : undefined;
      const provider = text('provider', stored.oembed.providerName ?? '').trim() || made?.providerName || '';
      return {
        ...stored,
        title,
        url,
        oembed: { html: made?.html ?? typedEmbed, ...(provider ? { providerName: provider } : {}) },
        overlay: {
          ...stored.overlay,
          file: text('file', stored.overlay.file),
          altText: text('alt', stored.overlay.altText),
          focalPoint: {
            x: percent(body, blockField(i, 'focusX'), stored.overlay.focalPoint.x, problems),
            y: percent(body, blockField(i, 'focusY'), stored.overlay.focalPoint.y, problems),
          },
        },
      };
    }
    case 'gallery': {
      const aspectRatio = text('aspectRatio', stored.aspectRatio ?? '');
      const label = text('label', stored.label ?? '').trim();
      const { aspectRatio: _ratio, label: _label, ...rest } = stored;
      const flagsShown = one(body, blockField(i, 'flagsShown')) === 'yes';
      return {
        ...rest,
        design: text('design', stored.design) as typeof stored.design,
        ...(label ? { label } : {}),
        ...(aspectRatio ? { aspectRatio: aspectRatio as NonNullable<typeof stored.aspectRatio> } : {}),
        flags: flagsShown
          ? GALLERY_FLAGS.filter((flag) => many(body, blockField(i, 'flags')).includes(flag))
          : stored.flags,
        lightboxTheme: text('lightboxTheme', stored.lightboxTheme) as typeof stored.lightboxTheme,
        metaPosition: text('metaPosition', stored.metaPosition) as typeof stored.metaPosition,
        activeAlignment: text('activeAlignment', stored.activeAlignment) as typeof stored.activeAlignment,
        autoplayDelay: galleryNumber(body, i, 'autoplayDelay', stored.autoplayDelay, problems),
        thumbnailStripHeight: galleryNumber(body, i, 'thumbnailStripHeight', stored.thumbnailStripHeight, problems),
        margin: galleryNumber(body, i, 'margin', stored.margin, problems),
        thumbnailsPerRow: galleryNumber(body, i, 'thumbnailsPerRow', stored.thumbnailsPerRow, problems),
        padding: galleryNumber(body, i, 'padding', stored.padding, problems),
        maxWidth: galleryNumber(body, i, 'maxWidth', stored.maxWidth, problems),
        images: stored.images.map((image, j) => {
          const title = one(body, imageField(i, j, 'title'))?.trim() ?? image.title ?? '';
          const description = one(body, imageField(i, j, 'description'))?.trim() ?? image.description ?? '';
          const { title: _t, description: _d, ...plain } = image;
          return {
            ...plain,
            altText: one(body, imageField(i, j, 'alt')) ?? image.altText,
            ...(title ? { title } : {}),
            ...(description ? { description } : {}),
          };
        }),
      };
    }
  }
}

const levelOf = (raw: string): 1 | 2 | 3 => (raw === '1' ? 1 : raw === '3' ? 3 : 2);

/**
 * The draft the form describes, over `stored` (the page as stored when the form was made): the page's fields, its
 * blocks (the form's `blockCount` must be the stored count: blocks are added, moved and removed by the form's
 * actions, each applied to this draft), and its problems by field (the URL's in the spec's words).
 */
export function draftFromForm(
  site: { pages: readonly Page[]; collections: readonly { slug: string }[] },
  stored: Page,
  body: FormBody,
): PageDraft {
  const problems: FieldProblem[] = [];
  const typedPath = one(body, 'path') ?? stored.path;
  const path = checkPagePath(typedPath, {
    pages: site.pages.filter((p) => p.id !== stored.id).map((p) => p.path),
    collections: site.collections.map((c) => c.slug),
  });
  if (!path.ok) problems.push({ field: 'path', message: path.message });
  const newPassword = one(body, 'password') ?? '';
  const password: PageDraft['password'] = checked(body, 'removePassword')
    ? { remove: true }
    : newPassword !== ''
      ? { set: newPassword }
      : { keep: true };
  if ('set' in password && (password.set.trim() === '' || password.set.length > 256))
    problems.push({ field: 'password', message: 'must be 1 to 256 characters, not only spaces' });
  const blocks = stored.blocks.map((block, i) => blockFromForm(body, i, block, problems));
  const page: Page = {
    ...stored,
    title: (one(body, 'title') ?? stored.title).trim(),
    path: path.ok ? path.path : typedPath,
    showInNavigation:
      one(body, 'navigationShown') === 'yes' ? checked(body, 'showInNavigation') : stored.showInNavigation,
    blocks,
  };
  return { page, password, problems: [...problems, ...schemaProblems(page, problems)] };
}

/** The page schema's problems of `page` not already found (a field has one message at a time). */
export function schemaProblems(page: unknown, known: readonly FieldProblem[] = []): FieldProblem[] {
  const parsed = pageSchema.safeParse(page);
  if (parsed.success) return [];
  const seen = new Set(known.map((p) => p.field));
  const found: FieldProblem[] = [];
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path);
    if (field === 'password' || seen.has(field)) continue;
    seen.add(field);
    found.push({ field, message: plainMessage(issue) });
  }
  return found;
}

/** zod's own size messages ('Too small: expected string to have >=1 characters') in the editor's words. */
function plainMessage(issue: {
  code: string;
  message: string;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
}) {
  const { code, origin } = issue;
  if (code === 'too_small' && origin === 'string')
    return issue.minimum === 1 ? 'must not be empty' : `must be at least ${String(issue.minimum)} characters`;
  if (code === 'too_big' && origin === 'string') return `must be at most ${String(issue.maximum)} characters`;
  if (code === 'too_small' && origin === 'number') return `must be at least ${String(issue.minimum)}`;
  if (code === 'too_big' && origin === 'number') return `must be at most ${String(issue.maximum)}`;
  if (code === 'too_small' && origin === 'array') return `must have at least ${String(issue.minimum)}`;
  return issue.message;
}

/** The form field a schema path belongs to (['blocks', 2, 'image', 'altText'] → 'b2.alt'). */
function fieldOf(path: readonly PropertyKey[]): string {
  const [first, i, key, ...rest] = path;
  if (first !== 'blocks' || typeof i !== 'number') return typeof first === 'string' ? first : '';
  if (key === 'image' || key === 'overlay') {
    const sub = rest[0];
    if (sub === 'altText') return blockField(i, 'alt');
    if (sub === 'focalPoint') return blockField(i, rest[1] === 'y' ? 'focusY' : 'focusX');
    return blockField(i, 'file');
  }
  if (key === 'oembed') return blockField(i, rest[0] === 'providerName' ? 'provider' : 'embed');
  if (key === 'images' && typeof rest[0] === 'number')
    return imageField(i, rest[0], rest[1] === 'altText' ? 'alt' : String(rest[1] ?? 'alt'));
  return typeof key === 'string' ? blockField(i, key) : `b${i}`;
}

const PAGE_FIELD_LABELS: Readonly<Record<string, string>> = {
  title: 'Title',
  path: 'URL',
  password: 'Password',
  status: 'Status',
  publishAt: 'Publish at',
};

/** The label of a problem's field for the summary above the form ('Block 2 (Heading): text'). */
export function problemLabel(page: Page, field: string): string {
  if (field.startsWith('addVideo.'))
    return `New video block: ${{ url: 'address', title: 'title', embed: 'embed code' }[field.slice(9)] ?? field}`;
  const match = /^b(\d+)\.(.+)$/.exec(field);
  if (!match) return PAGE_FIELD_LABELS[field] ?? 'The page';
  const i = Number(match[1]);
  const block = page.blocks[i];
  return `Block ${i + 1}${block ? ` (${BLOCK_NAMES[block.type]})` : ''}`;
}

/** What the site offers the blocks to point at: its images, collections, products and forms. */
export interface BlockChoices {
  images: readonly string[];
  productCollections: readonly { id: string; title: string }[];
  blogCollections: readonly { id: string; title: string }[];
  products: readonly { id: string; name: string }[];
  forms: readonly { id: string; name: string; kind: string }[];
}

export function blockChoices(site: {
  collections: readonly Collection[];
  products: readonly { id: string; name: string }[];
  forms: readonly { id: string; name: string; kind: string }[];
  images: readonly string[];
}): BlockChoices {
  return {
    images: site.images.filter((file) => /\.(jpe?g|png|webp)$/i.test(file)),
    productCollections: site.collections.filter((c) => c.type === 'products'),
    blogCollections: site.collections.filter((c) => c.type === 'blog'),
    products: site.products,
    forms: site.forms,
  };
}

/** What the add form says of a new video block: its address, title and embed code (empty: made from the address). */
export interface NewVideo {
  url: string;
  title: string;
  embed: string;
}

/** The add form's fields of a new video block. */
export const NEW_VIDEO_FIELDS: Readonly<Record<keyof NewVideo, string>> = {
  url: 'addVideo.url',
  title: 'addVideo.title',
  embed: 'addVideo.embed',
};

/** An empty embed code for an address whose player cannot be made from it. */
export const EMBED_NEEDED =
  "must be the provider's embed code (its Share → Embed): only YouTube and Vimeo addresses need none";

/**
 * A video block of the add form's fields, its overlay the site's first image (changed in the block's fields after):
 * the site file's own video schema checks it, each problem named by its add field; or the problems.
 */
export function newVideoBlock(video: NewVideo, overlay: string): Result<Block, FieldProblem[]> {
  const url = video.url.trim();
  const title = video.title.trim();
  const typed = video.embed.trim();
  const made = typed === '' ? embedFromVideoUrl(url, title) : undefined;
  const parsed = videoBlockSchema.safeParse({
    type: 'video',
    url,
    title,
    oembed: { html: made?.html ?? typed, ...(made ? { providerName: made.providerName } : {}) },
    overlay: { file: overlay, altText: '', focalPoint: { x: 0.5, y: 0.5 } },
  });
  if (parsed.success) return ok(parsed.data);
  const problems: FieldProblem[] = [];
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    const field =
      key === 'url' ? NEW_VIDEO_FIELDS.url : key === 'title' ? NEW_VIDEO_FIELDS.title : NEW_VIDEO_FIELDS.embed;
    if (problems.some((p) => p.field === field)) continue;
    problems.push({
      field,
      message: field === NEW_VIDEO_FIELDS.embed && typed === '' ? EMBED_NEEDED : plainMessage(issue),
    });
  }
  return err(problems);
}

/** A new block of `kind`, pointing at the first thing the site has for it; or why the site cannot have one yet. */
export function newBlock(
  kind: string,
  choices: BlockChoices,
  video?: NewVideo,
): Result<Block, string | FieldProblem[]> {
  const image = choices.images[0];
  const needs = (what: string) =>
    err(`Add ${what} to the site first: a ${BLOCK_NAMES[kind as Block['type']] ?? kind} block shows one.`);
  switch (kind) {
    case 'heading':
      return ok({ type: 'heading', text: 'New heading', level: 2 });
    case 'text':
      return ok({ type: 'text', text: '' });
    case 'image':
      return image
        ? ok({ type: 'image', image: { file: image, altText: '', focalPoint: { x: 0.5, y: 0.5 } } })
        : needs('an image');
    case 'gallery':
      return image ? ok(galleryBlockSchema.parse({ type: 'gallery', images: [{ file: image }] })) : needs('an image');
    case 'video':
      // Its overlay (shown until played) is one of the site's images.
      return image ? newVideoBlock(video ?? { url: '', title: '', embed: '' }, image) : needs('an image');
    case 'productGrid': {
      const collection = choices.productCollections[0];
      return collection
        ? ok({ type: 'productGrid', collectionId: collection.id, limit: 6 })
        : needs('a products collection');
    }
    case 'product': {
      const product = choices.products[0];
      return product ? ok({ type: 'product', productId: product.id }) : needs('a product');
    }
    case 'form': {
      const form = choices.forms.find((f) => f.kind !== 'waitlist');
      return form ? ok({ type: 'form', formId: form.id }) : needs('a form');
    }
    case 'productWaitlist': {
      const form = choices.forms.find((f) => f.kind === 'waitlist');
      return form ? ok({ type: 'productWaitlist', formId: form.id }) : needs('a waitlist form');
    }
    case 'posts': {
      const blog = choices.blogCollections[0];
      return blog ? ok({ type: 'posts', collectionId: blog.id, limit: 3 }) : needs('a blog');
    }
    default:
      return err(`${kind} is not one of the expected options`);
  }
}

/** A block action of the form's buttons: 'up:2', 'down:0', 'remove:3', 'add'. */
export type BlockAction =
  | { kind: 'up' | 'down' | 'remove'; index: number }
  | { kind: 'add'; block: string; video: NewVideo }
  | { kind: 'save' }
  | { kind: 'preview' };

export function blockAction(body: FormBody): BlockAction {
  const op = one(body, 'op') ?? 'save';
  const match = /^(up|down|remove):(\d{1,4})$/.exec(op);
  if (match) return { kind: match[1] as 'up' | 'down' | 'remove', index: Number(match[2]) };
  if (op === 'add')
    return {
      kind: 'add',
      block: one(body, 'addKind') ?? '',
      video: {
        url: one(body, NEW_VIDEO_FIELDS.url) ?? '',
        title: one(body, NEW_VIDEO_FIELDS.title) ?? '',
        embed: one(body, NEW_VIDEO_FIELDS.embed) ?? '',
      },
    };
  return op === 'preview' ? { kind: 'preview' } : { kind: 'save' };
}

/** `blocks` with `action` applied (a copy), and what was done, for the notice; or why not (a new block's problems by field). */
export function applyBlockAction(
  blocks: readonly Block[],
  action: BlockAction,
  choices: BlockChoices,
): Result<{ blocks: Block[]; done: string; focus: number | null }, string | FieldProblem[]> {
  const list = [...blocks];
  if (action.kind === 'save' || action.kind === 'preview') return ok({ blocks: list, done: 'Saved.', focus: null });
  if (action.kind === 'add') {
    const made = newBlock(action.block, choices, action.video);
    if (!made.ok) return made;
    list.push(made.value);
    return ok({
      blocks: list,
      done: `Added a ${BLOCK_NAMES[made.value.type]} block at the end.`,
      focus: list.length - 1,
    });
  }
  const block = list[action.index];
  if (!block) return err('That block is no longer on the page. Reload to see the page as it is.');
  const name = BLOCK_NAMES[block.type];
  if (action.kind === 'remove') {
    list.splice(action.index, 1);
    return ok({ blocks: list, done: `Removed block ${action.index + 1} (${name}).`, focus: null });
  }
  const to = action.kind === 'up' ? action.index - 1 : action.index + 1;
  if (to < 0 || to >= list.length) return err(`Block ${action.index + 1} (${name}) cannot move ${action.kind}.`);
  list.splice(action.index, 1);
  list.splice(to, 0, block);
  return ok({ blocks: list, done: `Moved block ${action.index + 1} (${name}) ${action.kind}.`, focus: to });
}
