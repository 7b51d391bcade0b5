/**
 * The design editor at /admin/design (issue 26), through the admin module's helpers; staff with 'design.edit'
 * (admins, website managers).
 *
 * - GET /admin/design[?done] → the look's form (colours, fonts, button shape, logo, favicon) beside the preview frame,
 *   the header's menu and the footer's links
 * - POST /admin/design (form) → saved (303 back with a notice), or the form again with the reasons (422: a colour
 *   that is neither hex nor HSL, with §5's 'Hue out of bounds.' …; a contrast below WCAG AA, with the pair and its
 *   ratio); intent=preview shows the form again with the values typed and saves nothing
 * - GET /admin/design/preview → the storefront's home page with the stored design (the frame's first page); POST there
 *   (the look's form, `formtarget` the frame: no JavaScript needed) → the home page with the design as typed, unsaved:
 *   PageRenderer.renderDesignDraft, the storefront's own render; or, in the frame, what to correct
 * - POST /admin/design/menu, /admin/design/footer (form: op add | reset | up:… | down:… | remove:…) → 303 back
 * - GET /api/admin/design, PUT /api/admin/design ({ baseVersion, design }) → JSON
 *
 * Every save is a new site version by the staff member (editSite: a save of the design by someone else since the
 * form's version is refused with what changed and by whom), its audit entry in the same transaction.
 */
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BUTTON_SHAPES,
  contrastProblems,
  DEFAULT_BODY_FONT,
  DEFAULT_BUTTON_SHAPE,
  DEFAULT_HEADING_FONT,
  effectiveColours,
  FONT_NAMES,
  isWebFont,
  type ButtonShape,
  type DesignColours,
  type FontName,
} from '../../core/design';
import { moveItem, readColour, readLinkTarget } from '../../core/designForm';
import { escapeHtml } from '../../core/html';
import { formatFileSize, MEDIA_MESSAGES } from '../../core/media';
import { err, ok, type Result } from '../../core/result';
import type { AppContext } from '../../platform/http/appContext';
import { ApiError } from '../../platform/http/errors';
import { isUploadedFile, registerUploadParsers } from '../../platform/http/uploads';
import { parseInput } from '../../platform/http/validation';
import type { PageRenderer } from '../../render/renderPath';
import { AdminNotice, AdminTitle } from '../../ui/admin/AdminFrame';
import {
  COLOUR_FIELDS,
  DESIGN_PATH,
  DESIGN_PREVIEW_PATH,
  DesignLookForm,
  DesignPreview,
  FooterEditor,
  LogoUploadForm,
  MenuEditor,
  type ColourField,
  type LookValues,
  type MenuChoice,
} from '../../ui/admin/Design';
import { currentStaff, recordAudit, requireStaff, type AdminPages, type AdminView, type AdminVisit } from '../admin';
import {
  designBody,
  designFooterFormRoute,
  designLogoFormRoute,
  designLookFormRoute,
  designMenuFormRoute,
  designPage,
  designPageQuery,
  designPreviewFormRoute,
  designPreviewPage,
  getDesignRoute,
  putDesignRoute,
} from './designAdmin.schema';
import { editSite, type EditFailure } from './edit';
import { fileTooLargeFor, imageFromUpload, maxUploadBytes, withLibraryImage } from './media';
import { siteOf, type RequestSite } from './requestSite';
import type { Website } from './schema';
import { readSettingsEditor, saveSettings, settingsKeys, type SettingsEditorState } from './settingsEdit';

type Design = NonNullable<Website['design']>;
type Form = Record<string, string | undefined>;

const editing = { section: DESIGN_PATH, permission: 'design.edit' } as const;

/** §5's editor message for a choice that is not offered. */
const notAnOption = (val: string) => `${val} is not one of the expected options`;

/** A failed edit as the JSON calls answer it. */
export function editApiError(failure: EditFailure): ApiError {
  switch (failure.type) {
    case 'NOT_FOUND':
      return new ApiError('version-not-found', failure.message);
    case 'STALE':
      return new ApiError(
        'site-edit-stale',
        failure.changes.length ? `${failure.message} (${failure.changes.join('; ')}.)` : failure.message,
      );
    case 'INVALID': {
      const first = failure.problems[0] ?? failure.message;
      const at = first.indexOf(': ');
      return new ApiError('invalid-input', failure.message, at > 0 ? { field: first.slice(0, at) } : {});
    }
    case 'REFUSED':
      return new ApiError('site-edit-refused', failure.message);
    case 'DOMAIN_TAKEN':
      return new ApiError('site-edit-refused', failure.message);
  }
}

/** A failed edit as a form's page says it, and its status. */
export function editNotice(failure: EditFailure): { text: string; status: number } {
  const status = { NOT_FOUND: 404, STALE: 409, INVALID: 422, REFUSED: 422, DOMAIN_TAKEN: 409 }[failure.type];
  const text =
    failure.type === 'STALE' && failure.changes.length
      ? `${failure.message} (${failure.changes.join('; ')}.)`
      : failure.message;
  return { text, status };
}

/** The ids of the menu the storefront shows without a design menu (as render/siteData.ts's defaultNav does). */
function defaultMenu(state: SettingsEditorState): string[] {
  const shown = state.pages.filter((p) => p.showInNavigation);
  const taken = new Set(shown.map((p) => p.path));
  const collections = state.collections.filter((c) => c.type !== 'page' && !taken.has(`/${c.slug}`)).map((c) => c.id);
  const home = shown.filter((p) => p.path === '/').map((p) => p.id);
  const rest = shown.filter((p) => p.path !== '/').map((p) => p.id);
  return [...home, ...collections, ...rest];
}

/** What the menu may hold: the pages, and the product and blog collections. */
function menuChoices(state: SettingsEditorState): MenuChoice[] {
  return [
    ...state.pages.map((p) => ({ id: p.id, title: p.title, kind: 'page' as const })),
    ...state.collections
      .filter((c) => c.type !== 'page')
      .map((c) => ({ id: c.id, title: c.title, kind: 'collection' as const })),
  ];
}

/** The look's form filled with the stored design. */
function storedLook(state: SettingsEditorState): LookValues {
  const design = state.website.design;
  const shown = effectiveColours(design?.colours);
  const colours = Object.fromEntries(
    COLOUR_FIELDS.map(({ name }) => [name, { text: design?.colours?.[name] ?? '', picker: shown[name] }]),
  ) as LookValues['colours'];
  return {
    colours,
    headingFont: design?.headingFont ?? DEFAULT_HEADING_FONT,
    bodyFont: design?.bodyFont ?? DEFAULT_BODY_FONT,
    buttonShape: design?.buttonShape ?? DEFAULT_BUTTON_SHAPE,
    logo: design?.logo?.file ?? '',
    logoAlt: design?.logo?.altText ?? state.title,
    favicon: design?.favicon?.file ?? '',
  };
}

/**
 * The colour a field says: the text when it was changed, else the picker when it was moved, else the text as it was.
 * Without JavaScript both are sent; the one the owner touched wins.
 */
function chosenColour(form: Form, name: ColourField): string {
  const text = form[name] ?? '';
  const was = form[`${name}Was`] ?? '';
  const picker = form[`${name}Picker`] ?? '';
  const pickerWas = form[`${name}PickerWas`] ?? '';
  if (text.trim() !== was.trim()) return text;
  if (picker !== '' && picker.toLowerCase() !== pickerWas.toLowerCase()) return picker;
  return text;
}

interface LookReading {
  values: LookValues;
  errors: Record<string, string>;
  contrast: string[];
  /** The look as the design writes it, when nothing is wrong. */
  look?: Pick<Design, 'colours' | 'headingFont' | 'bodyFont' | 'buttonShape' | 'logo' | 'favicon'>;
}

/** The look's form as posted: its values to show again, what is wrong with them, or the look to save. */
function readLook(form: Form, state: SettingsEditorState): LookReading {
  const errors: Record<string, string> = {};
  const colours: DesignColours = {};
  const shownColours = {} as LookValues['colours'];
  for (const { name } of COLOUR_FIELDS) {
    const typed = chosenColour(form, name).slice(0, 60);
    const read = readColour(typed);
    if (read.ok) {
      if (read.value !== undefined) colours[name] = read.value;
      shownColours[name] = { text: read.value ?? '', picker: '' };
    } else {
      errors[name] = read.error;
      shownColours[name] = { text: typed, picker: '' };
    }
  }
  const effective = effectiveColours(colours);
  for (const { name } of COLOUR_FIELDS) shownColours[name].picker = effective[name];
  const choice = <T extends string>(field: string, options: readonly T[], fallback: T): T => {
    const value = form[field];
    if (value === undefined || value === '') return fallback;
    if ((options as readonly string[]).includes(value)) return value as T;
    errors[field] = notAnOption(value.slice(0, 60));
    return fallback;
  };
  const headingFont = choice<FontName>('headingFont', FONT_NAMES, DEFAULT_HEADING_FONT);
  const bodyFont = choice<FontName>('bodyFont', FONT_NAMES, DEFAULT_BODY_FONT);
  const buttonShape = choice<ButtonShape>('buttonShape', BUTTON_SHAPES, DEFAULT_BUTTON_SHAPE);
  const logo = choice<string>('logo', state.images, '');
  const favicon = choice<string>('favicon', state.images, '');
  const logoAlt = (form.logoAlt ?? '').trim().slice(0, 250) || state.title;
  const values: LookValues = {
    colours: shownColours,
    headingFont: form.headingFont ?? headingFont,
    bodyFont: form.bodyFont ?? bodyFont,
    buttonShape,
    logo: form.logo ?? '',
    logoAlt,
    favicon: form.favicon ?? '',
  };
  const contrast = Object.keys(errors).some((k) => COLOUR_FIELDS.some((f) => f.name === k))
    ? []
    : contrastProblems(colours).map((line) => `The ${line}.`);
  if (Object.keys(errors).length || contrast.length) return { values, errors, contrast };
  return {
    values,
    errors,
    contrast,
    look: {
      ...(Object.keys(colours).length ? { colours } : {}),
      headingFont,
      bodyFont,
      buttonShape,
      ...(logo ? { logo: { file: logo, altText: logoAlt } } : {}),
      ...(favicon ? { favicon: { file: favicon } } : {}),
    },
  };
}

const baseVersionOf = (form: Form): number | undefined => {
  const n = Number(form.baseVersion);
  return Number.isInteger(n) && n >= 1 && n <= 2_147_483_647 ? n : undefined;
};

/** A change of the stored design (absent: an empty one), as a change of the website's settings. */
const changeDesign =
  (edit: (design: Design) => Result<Design, string>) =>
  (website: Website): Result<Website, string> => {
    const changed = edit(structuredClone(website.design ?? ({ footerLinks: [] } as unknown as Design)));
    return changed.ok ? ok({ ...website, design: changed.value }) : changed;
  };

/** The look's fields as a refusal names them ('Heading font: x is not one of the expected options'). */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(COLOUR_FIELDS.map((f) => [f.name, f.label])),
  headingFont: 'Heading font',
  bodyFont: 'Text font',
  buttonShape: 'Buttons',
  logo: 'Logo',
  favicon: 'Browser tab icon',
};

/** The design a look makes of the stored one: the look's keys replaced, the menu and footer links kept. */
function withLook(stored: Design | undefined, look: NonNullable<LookReading['look']>): Design {
  const next: Design = { ...(stored ?? ({ footerLinks: [] } as unknown as Design)), ...look };
  if (!look.colours) delete next.colours;
  if (!look.logo) delete next.logo;
  if (!look.favicon) delete next.favicon;
  return next;
}

export function registerDesignAdminRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  pages: AdminPages,
  renderer: PageRenderer,
): void {
  const stateOf = async (siteId: string): Promise<SettingsEditorState> => {
    const state = await readSettingsEditor(ctx.db, siteId);
    if (!state) throw new ApiError('site-not-found', `There is no site '${siteId}'.`);
    return state;
  };

  interface Shown {
    look?: { values: LookValues; errors: Record<string, string>; contrast: string[]; preview?: boolean };
    menuError?: string;
    uploadError?: string;
    footer?: { values: { label: string; link: string }; errors: Record<string, string> };
    notice?: { kind: 'done' | 'error'; text: string };
    status?: number;
    /** The form's version (a refused form keeps the one it was made from). */
    baseVersion?: number;
  }

  const designView = async (visit: AdminVisit, shown: Shown = {}): Promise<AdminView> => {
    const state = await stateOf(visit.site.id);
    const form = { crumb: visit.crumb, crumbField: visit.crumbField, baseVersion: state.version };
    const stored = storedLook(state);
    const look = shown.look?.values ?? stored;
    const design = state.website.design;
    const choices = menuChoices(state);
    const menuIds = design?.menu ?? defaultMenu(state);
    const menu = menuIds.flatMap((id) => choices.filter((c) => c.id === id).slice(0, 1));
    const pagePath = (id: string) => state.pages.find((p) => p.id === id)?.path ?? `/${id}`;
    return {
      title: 'Design',
      status: shown.status ?? 200,
      body: (
        <>
          <AdminTitle title="Design" />
          {shown.notice ? <AdminNotice kind={shown.notice.kind}>{shown.notice.text}</AdminNotice> : null}
          {shown.look?.preview ? (
            <AdminNotice kind="done">Preview: the form keeps the values typed. Nothing is saved yet.</AdminNotice>
          ) : null}
          <p className="admin-muted">
            {`The storefront's colours, fonts, buttons, logo, menu and footer. Each save is a new version of the site (now version ${state.version}), which the versions page can compare and restore.`}
          </p>
          <div className="admin-editor">
            <DesignLookForm
              {...form}
              values={look}
              was={shown.look?.preview ? look : stored}
              errors={shown.look?.errors ?? {}}
              contrast={shown.look?.contrast ?? []}
              fonts={{
                system: FONT_NAMES.filter((f) => !isWebFont(f)),
                shipped: FONT_NAMES.filter((f) => isWebFont(f)),
              }}
              shapes={BUTTON_SHAPES}
              images={state.images}
            />
            <DesignPreview title={state.title} />
          </div>
          <LogoUploadForm
            {...form}
            maxSize={formatFileSize(maxUploadBytes(state.website))}
            altText={design?.logo?.altText ?? state.title}
            error={shown.uploadError}
          />
          <MenuEditor
            {...form}
            menu={menu}
            isDefault={design?.menu === undefined}
            addable={choices.filter((c) => !menuIds.includes(c.id))}
            error={shown.menuError}
          />
          <FooterEditor
            {...form}
            links={(design?.footerLinks ?? []).map((l) => ({
              label: l.label,
              href: 'url' in l ? l.url : pagePath(l.page),
            }))}
            values={shown.footer?.values ?? { label: '', link: '' }}
            errors={shown.footer?.errors ?? {}}
            pagePaths={state.pages.map((p) => p.path)}
          />
        </>
      ),
    };
  };

  /** Saves a change of the design from a form: the path back with its notice, or the page with the refusal. */
  const saveFromForm = async (
    visit: AdminVisit,
    form: Form,
    summary: string,
    edit: (design: Design) => Result<Design, string>,
    refused: (text: string, status: number) => Shown,
  ): Promise<string | AdminView> => {
    const baseVersion = baseVersionOf(form);
    if (baseVersion === undefined)
      return designView(visit, refused('The form is not one of this page: reload the page and try again.', 400));
    const saved = await saveSettings(ctx.db, visit.site.id, {
      baseVersion,
      subjects: [settingsKeys('design')],
      staff: visit.staff,
      action: 'design.edit',
      summary,
      change: changeDesign(edit),
    });
    if (!saved.ok) {
      const { text, status } = editNotice(saved.error);
      return designView(visit, refused(text, status));
    }
    const done = `${summary}: saved as version ${saved.value.version.number}.`;
    return `${DESIGN_PATH}?done=${encodeURIComponent(done)}`;
  };

  app.get(DESIGN_PATH, { schema: designPage }, (request, reply) =>
    pages.answer(request, reply, editing, (visit) => {
      const query = designPageQuery.safeParse(request.query);
      const done = query.success ? query.data.done : undefined;
      return designView(visit, done ? { notice: { kind: 'done', text: done } } : {});
    }),
  );

  // ---------------------------------------------------------------- the preview frame

  const sendPreview = async (reply: FastifyReply, site: RequestSite, design: Design | undefined) => {
    const rendered = await renderer.renderDesignDraft(site, design);
    return reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .code(200)
      .type('text/html; charset=utf-8')
      .send(rendered.html);
  };

  app.get(DESIGN_PREVIEW_PATH, { schema: designPreviewPage }, async (request, reply) => {
    await requireStaff(request, 'design.edit');
    const site = await siteOf(request);
    return sendPreview(reply, site, (await stateOf(site.id)).website.design);
  });

  app.get('/api/admin/design', { schema: getDesignRoute }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    await requireStaff(request, 'design.edit');
    const state = await stateOf((await siteOf(request)).id);
    return {
      version: state.version,
      design: state.website.design ?? {},
      choices: {
        fonts: FONT_NAMES,
        buttonShapes: BUTTON_SHAPES,
        images: state.images,
        menuItems: menuChoices(state),
      },
    };
  });

  app.register(async (scope) => {
    /** The bytes a logo upload may send: the site's upload limit for staff who may edit the design, none for others. */
    const limitOf = async (request: FastifyRequest): Promise<number> => {
      const staff = await currentStaff(request);
      return staff?.can('design.edit') ? maxUploadBytes((await siteOf(request)).settings) : 0;
    };
    registerUploadParsers(scope, limitOf);

    scope.post(`${DESIGN_PATH}/logo`, { schema: designLogoFormRoute }, (request, reply: FastifyReply) =>
      pages.action(request, reply, editing, async (visit) => {
        const form = (request.body ?? {}) as Record<string, unknown>;
        const file = form.file;
        const state = await stateOf(visit.site.id);
        const refused = (text: string, status: number) =>
          designView(visit, { uploadError: text, notice: { kind: 'error', text: `Not uploaded: ${text}` }, status });
        if (!isUploadedFile(file) || (file.size === 0 && file.fileName === ''))
          return refused(MEDIA_MESSAGES.fileNameMissing, 400);
        if (!file.complete) return refused(fileTooLargeFor(state.website, file.fileName).message, 413);
        const image = await imageFromUpload(
          state.website,
          { bytes: file.bytes, fileName: file.fileName },
          new Set(state.images),
        );
        if (!image.ok) return refused(image.error.message, image.error.type === 'TOO_LARGE' ? 413 : 415);
        const baseVersion = baseVersionOf(form as Form);
        if (baseVersion === undefined) return refused('The form is not one of this page: reload the page.', 400);
        const altText = (typeof form.logoAlt === 'string' ? form.logoAlt.trim().slice(0, 250) : '') || state.title;
        let path = image.value.path;
        const saved = await editSite(ctx.db, visit.site.id, {
          baseVersion,
          subjects: [{ kind: 'settings', keys: ['design'] }],
          author: { createdBy: visit.staff.email },
          change: (content) => {
            const added = withLibraryImage(content, image.value);
            path = added.image.path;
            const website = added.content.site.website;
            website.design = {
              ...(website.design ?? ({ footerLinks: [] } as unknown as Design)),
              logo: { file: path, altText },
            };
            return ok(added.content);
          },
          alsoInTransaction: async (trx, { version }) => {
            await recordAudit(trx, {
              siteId: visit.site.id,
              actor: visit.staff.actor,
              action: 'design.edit',
              subject: { type: 'site', id: visit.site.id },
              summary: `Uploaded ${path} as the logo (version ${version.number})`,
              before: { logo: state.website.design?.logo ?? null },
              after: { logo: { file: path, altText } },
            });
          },
        });
        if (!saved.ok) {
          const { text, status } = editNotice(saved.error);
          return designView(visit, { notice: { kind: 'error', text }, status });
        }
        return `${DESIGN_PATH}?done=${encodeURIComponent(`Uploaded ${path} as the logo: saved as version ${saved.value.version.number}.`)}`;
      }),
    );
  });

  app.register(async (scope) => {
    await scope.register(fastifyFormbody, { bodyLimit: 16 * 1024 });

    scope.post(DESIGN_PREVIEW_PATH, { schema: designPreviewFormRoute }, async (request, reply) => {
      await requireStaff(request, 'design.edit');
      const site = await siteOf(request);
      const state = await stateOf(site.id);
      const reading = readLook((request.body ?? {}) as Form, state);
      if (reading.look) return sendPreview(reply, site, withLook(state.website.design, reading.look));
      // What to correct, in the frame (the form beside it says the same once saved).
      const problems = [
        ...Object.entries(reading.errors).map(([field, message]) => `${FIELD_LABELS[field] ?? field}: ${message}`),
        ...reading.contrast,
      ];
      return reply
        .header('cache-control', 'no-store')
        .code(400)
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Preview not shown</title></head><body><main><h1>Preview not shown</h1><p>Correct these first:</p><ul>${problems
            .map((line) => `<li>${escapeHtml(line)}</li>`)
            .join('')}</ul></main></body></html>`,
        );
    });

    scope.put('/api/admin/design', { schema: putDesignRoute }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const staff = await requireStaff(request, 'design.edit');
      const site = await siteOf(request);
      const body = parseInput(designBody, request.body, 'body');
      const saved = await saveSettings(ctx.db, site.id, {
        baseVersion: body.baseVersion,
        subjects: [settingsKeys('design')],
        staff,
        action: 'design.edit',
        summary: 'Saved the design',
        change: (website) => ok({ ...website, design: body.design }),
      });
      if (!saved.ok) throw editApiError(saved.error);
      return { version: saved.value.version.number, design: saved.value.site.settings.design ?? {} };
    });

    scope.post(DESIGN_PATH, { schema: designLookFormRoute }, (request, reply: FastifyReply) =>
      pages.action(request, reply, editing, async (visit) => {
        const form = (request.body ?? {}) as Form;
        const state = await stateOf(visit.site.id);
        const reading = readLook(form, state);
        const preview = form.intent === 'preview';
        if (!reading.look || preview)
          return designView(visit, {
            look: { ...reading, preview: preview && !!reading.look },
            status: reading.look ? 200 : 422,
            ...(reading.look
              ? {}
              : { notice: { kind: 'error', text: 'Not saved: see the reasons beside the fields.' } }),
          });
        const look = reading.look;
        return saveFromForm(
          visit,
          form,
          'Changed the colours, fonts and logo',
          (design) => ok(withLook(design, look)),
          (text, status) => ({
            look: reading,
            notice: { kind: 'error', text },
            status,
          }),
        );
      }),
    );

    scope.post(`${DESIGN_PATH}/menu`, { schema: designMenuFormRoute }, (request, reply: FastifyReply) =>
      pages.action(request, reply, editing, async (visit) => {
        const form = (request.body ?? {}) as Form;
        const state = await stateOf(visit.site.id);
        const choices = menuChoices(state);
        const op = form.op ?? '';
        const [verb, key = ''] = op.includes(':')
          ? [op.slice(0, op.indexOf(':')), op.slice(op.indexOf(':') + 1)]
          : [op];
        const refused = (text: string, status: number): Shown => ({ menuError: text, status });
        const edit = (design: Design): Result<Design, string> => {
          const menu = design.menu ?? defaultMenu(state);
          const at = menu.indexOf(key);
          switch (verb) {
            case 'reset': {
              const next = { ...design };
              delete next.menu;
              return ok(next);
            }
            case 'add': {
              const item = form.item ?? '';
              if (!choices.some((c) => c.id === item) || menu.includes(item))
                return err(notAnOption(item.slice(0, 64)));
              return ok({ ...design, menu: [...menu, item] });
            }
            case 'up':
            case 'down':
              if (at < 0) return err(`${key.slice(0, 64)} is not in the menu`);
              return ok({ ...design, menu: moveItem(menu, at, verb === 'up' ? -1 : 1) });
            case 'remove':
              if (at < 0) return err(`${key.slice(0, 64)} is not in the menu`);
              return ok({ ...design, menu: menu.filter((id) => id !== key) });
            default:
              return err(notAnOption(op.slice(0, 64)));
          }
        };
        const title = choices.find((c) => c.id === (verb === 'add' ? form.item : key))?.title;
        const summary =
          verb === 'reset'
            ? 'Set the menu back to the storefront’s own'
            : verb === 'add'
              ? `Added ${title ?? 'a link'} to the menu`
              : verb === 'remove'
                ? `Removed ${title ?? 'a link'} from the menu`
                : `Moved ${title ?? 'a link'} ${verb === 'up' ? 'up' : 'down'} in the menu`;
        return saveFromForm(visit, form, summary, edit, refused);
      }),
    );

    scope.post(`${DESIGN_PATH}/footer`, { schema: designFooterFormRoute }, (request, reply: FastifyReply) =>
      pages.action(request, reply, editing, async (visit) => {
        const form = (request.body ?? {}) as Form;
        const state = await stateOf(visit.site.id);
        const op = form.op ?? '';
        const [verb, key = ''] = op.includes(':')
          ? [op.slice(0, op.indexOf(':')), op.slice(op.indexOf(':') + 1)]
          : [op];
        const values = { label: (form.label ?? '').slice(0, 200), link: (form.link ?? '').slice(0, 2100) };
        if (verb === 'add') {
          const errors: Record<string, string> = {};
          const label = values.label.trim();
          if (label === '') errors.label = 'Please enter the link’s text.';
          else if (label.length > 60) errors.label = 'The link’s text must be at most 60 characters.';
          const target = readLinkTarget(values.link, state.pages);
          if (!target.ok) errors.link = target.error;
          if (Object.keys(errors).length || !target.ok)
            return designView(visit, {
              footer: { values, errors },
              status: 422,
              notice: { kind: 'error', text: 'Not added: see the reasons beside the fields.' },
            });
          return saveFromForm(
            visit,
            form,
            `Added the footer link ${label}`,
            (design) => ok({ ...design, footerLinks: [...(design.footerLinks ?? []), { label, ...target.value }] }),
            (text, status) => ({ footer: { values, errors: {} }, notice: { kind: 'error', text }, status }),
          );
        }
        const index = /^\d{1,3}$/.test(key) ? Number(key) : -1;
        const edit = (design: Design): Result<Design, string> => {
          const links = design.footerLinks ?? [];
          if (index < 0 || index >= links.length) return err('That footer link is no longer there: reload the page.');
          if (verb === 'remove') return ok({ ...design, footerLinks: links.filter((_, i) => i !== index) });
          if (verb === 'up' || verb === 'down')
            return ok({ ...design, footerLinks: moveItem(links, index, verb === 'up' ? -1 : 1) });
          return err(notAnOption(op.slice(0, 64)));
        };
        const label = state.website.design?.footerLinks[index]?.label ?? 'a link';
        const summary =
          verb === 'remove'
            ? `Removed the footer link ${label}`
            : `Moved the footer link ${label} ${verb === 'up' ? 'up' : 'down'}`;
        return saveFromForm(visit, form, summary, edit, (text, status) => ({
          notice: { kind: 'error', text },
          status,
        }));
      }),
    );
  });
}
