import { pagerPages } from '../core/paging';

/**
 * Links to the other pages of a long list: previous, the page numbers of `pagerPages` (the current one marked with
 * aria-current), next. Nothing for a list of one page.
 */
export function Pager({ page, pageCount, href }: { page: number; pageCount: number; href: (page: number) => string }) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <ul className="pager__list">
        {page > 1 ? (
          <li>
            <a className="pager__step" href={href(page - 1)} rel="prev">
              Previous<span className="visually-hidden"> page</span>
            </a>
          </li>
        ) : null}
        {pagerPages(page, pageCount).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} className="pager__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              {n === page ? (
                <a className="pager__page" href={href(n)} aria-current="page">
                  <span className="visually-hidden">Page </span>
                  {n}
                </a>
              ) : (
                <a className="pager__page" href={href(n)}>
                  <span className="visually-hidden">Page </span>
                  {n}
                </a>
              )}
            </li>
          ),
        )}
        {page < pageCount ? (
          <li>
            <a className="pager__step" href={href(page + 1)} rel="next">
              Next<span className="visually-hidden"> page</span>
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
