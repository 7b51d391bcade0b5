/**
 * The owner's area's frame: a skip link, the side navigation (only the sections the staff member may use), the
 * header with who is signed in, and the page. Server-rendered; works without JavaScript.
 */
import type { ReactNode } from 'react';

export interface AdminSectionLink {
  path: string;
  label: string;
}

export interface AdminFrameProps {
  siteTitle: string;
  /** The signed-in staff member's e-mail and role name. */
  staff: { email: string; role: string };
  sections: readonly AdminSectionLink[];
  /** The section this page belongs to (its path), marked aria-current. */
  current: string;
  /** The crumb for the sign-out form. */
  crumb: string;
  crumbField: string;
  children: ReactNode;
}

export function AdminFrame(props: AdminFrameProps) {
  return (
    <div className="admin">
      <a className="admin-skip" href="#admin-main">
        Skip to content
      </a>
      <header className="admin-header">
        <a className="admin-brand" href="/admin">
          {`${props.siteTitle} `}
          <span className="admin-brand-area">Admin</span>
        </a>
        <div className="admin-who">
          <span>
            {`${props.staff.email} `}
            <span className="admin-role">{`(${props.staff.role})`}</span>
          </span>
          <a href="/">View store</a>
          <form method="post" action="/account/sign-out">
            <input type="hidden" name={props.crumbField} value={props.crumb} />
            <button type="submit" className="admin-link-button">
              Sign out
            </button>
          </form>
        </div>
      </header>
      <nav className="admin-nav" aria-label="Admin">
        <ul>
          {props.sections.map((s) => (
            <li key={s.path}>
              <a href={s.path} {...(s.path === props.current ? { 'aria-current': 'page' as const } : {})}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="admin-main" id="admin-main" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}

/** A page's title row: the heading and, beside it, the page's main actions. */
export function AdminTitle(props: { title: string; children?: ReactNode }) {
  return (
    <div className="admin-title">
      <h1>{props.title}</h1>
      {props.children ? <div className="admin-title-actions">{props.children}</div> : null}
    </div>
  );
}

/** A notice after an action (role="status"), or an error (role="alert"). */
export function AdminNotice(props: { kind: 'done' | 'error'; children: ReactNode }) {
  return (
    <p className={`admin-notice admin-notice-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  );
}

/**
 * A table's box: it scrolls sideways on its own when the screen is narrower than the table (a phone), so the page
 * never does. A region with a name that the keyboard can reach, so that it can be scrolled without a mouse (WCAG
 * 2.1.1; axe's scrollable-region-focusable).
 */
export function AdminTableBox(props: { label: string; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard
    <div className="admin-table-wrap" role="region" aria-label={props.label} tabIndex={0}>
      {props.children}
    </div>
  );
}
