/**
 * The lock screen (page type 103) of a password-protected page of the site file: the page's title, the password
 * field and its button, in the site's design. Nothing of the page's content is on it (its description neither). The
 * form posts to PAGE_LOCK_PATH without JavaScript (src/modules/pageLocks/pages/index.ts); a refused try comes back here
 * with its message beside the field. Made per request, never cached, kept out of search engines.
 */
import { CRUMB_FIELD } from '../../core/crumb';
import { PageType } from '../../core/enums';
import { PAGE_LOCK_FIELDS, PAGE_LOCK_MESSAGES, PAGE_LOCK_PATH, PAGE_PASSWORD_MAX_LENGTH } from '../../core/pageLock';
import type { Site } from '../../modules/site';
import type { Page } from '../../modules/site';
import { CRUMB_PLACEHOLDER } from '../../ui/formPost';
import type { PageContent } from '../pageKind';

/** How a lock screen is shown: first (401), or again after a refused try with its message and status. */
export interface LockScreenState {
  error: string | null;
  status: number;
}

export const FIRST_LOCK_SCREEN: LockScreenState = { error: null, status: 401 };

const ERROR_ID = 'page-lock-error';
const INTRO_ID = 'page-lock-intro';

export function lockScreen(site: Site, page: Pick<Page, 'path' | 'title'>, state: LockScreenState): PageContent {
  const title = page.path === '/' ? site.title : page.title;
  return {
    body: (
      <section className="page-lock" aria-labelledby="page-lock-title">
        <h1 className="page-title" id="page-lock-title">
          {title}
        </h1>
        <p id={INTRO_ID}>{PAGE_LOCK_MESSAGES.intro}</p>
        <form method="post" action={PAGE_LOCK_PATH} className="page-lock__form">
          <input type="hidden" name={CRUMB_FIELD} value={CRUMB_PLACEHOLDER} />
          <input type="hidden" name={PAGE_LOCK_FIELDS.path} value={page.path} />
          <div className="field">
            <label htmlFor="page-lock-password">{PAGE_LOCK_MESSAGES.label}</label>
            <input
              id="page-lock-password"
              name={PAGE_LOCK_FIELDS.password}
              type="password"
              autoComplete="current-password"
              required
              maxLength={PAGE_PASSWORD_MAX_LENGTH}
              aria-describedby={state.error === null ? INTRO_ID : ERROR_ID}
              {...(state.error === null ? {} : { 'aria-invalid': true })}
            />
            {state.error === null ? null : (
              <p className="field__error" id={ERROR_ID} role="alert">
                {state.error}
              </p>
            )}
          </div>
          <button type="submit" className="button button--primary">
            {PAGE_LOCK_MESSAGES.submit}
          </button>
        </form>
      </section>
    ),
    pageType: PageType.LOCK_SCREEN,
    title,
    description: PAGE_LOCK_MESSAGES.description,
    status: state.status,
    cacheable: false,
    noindex: true,
  };
}
