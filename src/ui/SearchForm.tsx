/**
 * The site's search form: a GET form to /search (works without JavaScript), a search landmark with a labelled
 * field. The header carries a compact one on every page but the search page, which has its own.
 */
import { ROUTES } from '../core/purchaseRoute';
import { SEARCH_MESSAGES, SEARCH_QUERY_MAX_LENGTH } from '../core/search';

export function SearchForm({
  id,
  query = '',
  label = SEARCH_MESSAGES.label,
  compact = false,
  describedBy,
  invalid = false,
}: {
  /** The field's id (the label points at it). */
  id: string;
  query?: string;
  label?: string;
  /** The header's form: the label is for screen readers only. */
  compact?: boolean;
  /** The id of a message about the query (a refusal). */
  describedBy?: string;
  invalid?: boolean;
}) {
  return (
    <form
      className={compact ? 'search-form search-form--compact' : 'search-form'}
      role="search"
      action={ROUTES.search}
      method="get"
    >
      <label htmlFor={id} className={compact ? 'visually-hidden' : 'search-form__label'}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={query}
        maxLength={SEARCH_QUERY_MAX_LENGTH}
        autoComplete="off"
        enterKeyHint="search"
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
      />
      <button type="submit" className={compact ? 'button button--small' : 'button button--primary'}>
        {SEARCH_MESSAGES.label}
      </button>
    </form>
  );
}
