/**
 * The versions page's parts (/admin/versions, issue 26): the versions newest first (number, when, who, source,
 * summary), the compare form (any two; the last two by default) with the differences as a list to read, and per
 * version a link to restore it — a confirmation page that says what the restore changes and asks to confirm (a
 * required checkbox). Plain forms and links: no JavaScript needed.
 */
import { AdminTableBox } from './AdminFrame';

export interface VersionRow {
  number: number;
  createdAt: string;
  createdBy: string;
  source: string;
  summary: string;
}

export const VERSIONS_PATH = '/admin/versions';

const shown = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

const SOURCE_WORDS: Readonly<Record<string, string>> = {
  import: 'Import',
  admin: 'Saved in /admin',
  restore: 'Restore',
};

export function VersionsTable(props: {
  rows: readonly VersionRow[];
  latest: number | null;
  canRestore: boolean;
  next: number | null;
  first: boolean;
}) {
  if (props.rows.length === 0) return <p className="admin-muted">No versions yet: import a site first.</p>;
  return (
    <>
      <AdminTableBox label="Versions">
        <table className="admin-table">
          <caption className="admin-sr-only">Site versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Saved (UTC)</th>
              <th scope="col">By</th>
              <th scope="col">Source</th>
              <th scope="col">What changed</th>
              {props.canRestore ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((v) => (
              <tr key={v.number}>
                <th scope="row">
                  {v.number}
                  {v.number === props.latest ? <span className="admin-muted">{' (current)'}</span> : null}
                </th>
                <td className="admin-nowrap">{shown(v.createdAt)}</td>
                <td>{v.createdBy}</td>
                <td>{SOURCE_WORDS[v.source] ?? v.source}</td>
                <td>{v.summary}</td>
                {props.canRestore ? (
                  <td>
                    {v.number === props.latest ? (
                      <span className="admin-muted">Current</span>
                    ) : (
                      <a className="admin-button admin-button-quiet" href={`${VERSIONS_PATH}/${v.number}/restore`}>
                        {'Restore'}
                        <span className="admin-sr-only">{` version ${v.number}`}</span>
                      </a>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </AdminTableBox>
      <nav className="admin-pager" aria-label="Pages">
        {props.first ? null : <a href={VERSIONS_PATH}>Newest</a>}
        {props.next !== null ? <a href={`${VERSIONS_PATH}?before=${props.next}`}>Older</a> : null}
      </nav>
    </>
  );
}

/** The compare form: two version numbers (a GET form: the comparison's address can be shared among staff). */
export function CompareForm(props: { from: number | undefined; to: number | undefined; latest: number | null }) {
  return (
    <form className="admin-filters" method="get" action={VERSIONS_PATH} aria-labelledby="compare-heading">
      <h2 id="compare-heading" className="admin-sr-only">
        Compare two versions
      </h2>
      <div>
        <label htmlFor="compare-from">Compare version</label>
        <input
          id="compare-from"
          name="from"
          type="number"
          inputMode="numeric"
          min={1}
          max={props.latest ?? undefined}
          required
          defaultValue={props.from}
        />
      </div>
      <div>
        <label htmlFor="compare-to">with version</label>
        <input
          id="compare-to"
          name="to"
          type="number"
          inputMode="numeric"
          min={1}
          max={props.latest ?? undefined}
          required
          defaultValue={props.to}
        />
      </div>
      <div>
        <button type="submit" className="admin-button">
          Compare
        </button>
      </div>
    </form>
  );
}

/** The differences as a list to read (or that there are none). */
export function DiffList(props: { heading: string; lines: readonly string[] }) {
  return (
    <section aria-labelledby="diff-heading" className="admin-card">
      <h2 id="diff-heading">{props.heading}</h2>
      {props.lines.length === 0 ? (
        <p>No changes (live stock is not part of a version).</p>
      ) : (
        <ul>
          {props.lines.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The confirmation of a restore: what it changes, a required checkbox, the button. */
export function RestoreForm(props: {
  number: number;
  latest: number | null;
  lines: readonly string[];
  crumb: string;
  crumbField: string;
}) {
  return (
    <>
      <DiffList
        heading={`Restoring version ${props.number} changes the current version (${props.latest ?? '—'}) so:`}
        lines={props.lines}
      />
      <form className="admin-form admin-card" method="post" action={`${VERSIONS_PATH}/${props.number}/restore`}>
        <input type="hidden" name={props.crumbField} value={props.crumb} />
        <p>
          The restore is saved as a new version, so it can be undone by restoring the current one. Live stock stays as
          sold.
        </p>
        <div className="admin-check">
          <input id="restore-confirm" name="confirm" type="checkbox" value="yes" required />
          <label htmlFor="restore-confirm">{`Yes, restore version ${props.number}`}</label>
        </div>
        <div>
          <button type="submit" className="admin-button">
            {`Restore version ${props.number}`}
          </button>{' '}
          <a href={VERSIONS_PATH}>Cancel</a>
        </div>
      </form>
    </>
  );
}
