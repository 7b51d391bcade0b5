/**
 * The staff page's parts (/admin/staff, admins): the staff and their roles with a form per row (change the role,
 * remove), the pending invitations, the invite form with what each role may do, and the sessions (revocable). Plain
 * forms: no JavaScript needed.
 */
import { Fragment } from 'react';

export interface StaffRow {
  id: string;
  email: string;
  role: number;
  roleName: string;
  createdAt: string;
}

export interface InviteRow {
  email: string;
  roleName: string;
  invitedBy: string;
  expiresAt: string;
  expired: boolean;
}

export interface SessionRow {
  id: string;
  userId: string;
  email: string;
  startedAt: string;
  lastSeenAt: string | null;
  userAgent: string | null;
}

export interface RoleChoice {
  role: number;
  name: string;
  /** What the role may do, in words (core/staffAccess.ts). */
  description: string;
}

interface FormProps {
  crumb: string;
  crumbField: string;
}

const shown = (iso: string | null): string => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : '—');

function Crumb(props: FormProps) {
  return <input type="hidden" name={props.crumbField} value={props.crumb} />;
}

function RoleSelect(props: {
  id: string;
  label: string;
  roles: readonly RoleChoice[];
  value?: string;
  labelHidden?: boolean;
  describedBy?: string;
}) {
  return (
    <>
      <label htmlFor={props.id} className={props.labelHidden ? 'admin-sr-only' : undefined}>
        {props.label}
      </label>
      <select
        id={props.id}
        name="role"
        defaultValue={props.value}
        {...(props.describedBy ? { 'aria-describedby': props.describedBy } : {})}
      >
        {props.roles.map((r) => (
          <option key={r.role} value={r.name}>
            {r.name}
          </option>
        ))}
      </select>
    </>
  );
}

export function StaffTable(props: FormProps & { rows: readonly StaffRow[]; roles: readonly RoleChoice[]; me: string }) {
  if (props.rows.length === 0) return <p className="admin-muted">No staff yet.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="admin-sr-only">Staff and their roles</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Added (UTC)</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">
                {r.email}
                {r.id === props.me ? <span className="admin-muted">{' (you)'}</span> : null}
              </th>
              <td>{r.roleName}</td>
              <td>{shown(r.createdAt)}</td>
              <td>
                <form className="admin-inline-form" method="post" action={`/admin/staff/${r.id}/role`}>
                  <Crumb crumb={props.crumb} crumbField={props.crumbField} />
                  <RoleSelect
                    id={`role-${r.id}`}
                    label={`Role of ${r.email}`}
                    roles={props.roles}
                    value={r.roleName}
                    labelHidden
                  />
                  <button type="submit" className="admin-button admin-button-quiet">
                    {`Change role`}
                    <span className="admin-sr-only">{` of ${r.email}`}</span>
                  </button>
                </form>
                <form className="admin-inline-form" method="post" action={`/admin/staff/${r.id}/remove`}>
                  <Crumb crumb={props.crumb} crumbField={props.crumbField} />
                  <button type="submit" className="admin-button admin-button-danger">
                    {`Remove`}
                    <span className="admin-sr-only">{` ${r.email}`}</span>
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function InviteForm(props: FormProps & { roles: readonly RoleChoice[]; email?: string }) {
  return (
    <form className="admin-form admin-card" method="post" action="/admin/staff/invite" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite</h2>
      <Crumb crumb={props.crumb} crumbField={props.crumbField} />
      <div>
        <label htmlFor="invite-email">E-mail</label>
        <input id="invite-email" name="email" type="email" required maxLength={256} defaultValue={props.email} />
      </div>
      <div>
        <RoleSelect id="invite-role" label="Role" roles={props.roles} describedBy="role-descriptions" />
      </div>
      <RoleDescriptions roles={props.roles} />
      <p className="admin-muted">
        They get an e-mail with a link that sets their password; it works once, for 72 hours.
      </p>
      <div>
        <button type="submit" className="admin-button">
          Send invitation
        </button>
      </div>
    </form>
  );
}

/** What each role may do, beside the invite form's role (the select is described by it). */
export function RoleDescriptions(props: { roles: readonly RoleChoice[] }) {
  return (
    <div>
      <h3 id="roles-heading">What each role may do</h3>
      <dl className="admin-card" id="role-descriptions" aria-labelledby="roles-heading">
        {props.roles.map((r) => (
          <Fragment key={r.role}>
            <dt>{r.name}</dt>
            <dd>{r.description}</dd>
          </Fragment>
        ))}
      </dl>
    </div>
  );
}

export function InviteTable(props: { rows: readonly InviteRow[] }) {
  if (props.rows.length === 0) return <p className="admin-muted">No invitations waiting.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="admin-sr-only">Invitations not used yet</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Invited by</th>
            <th scope="col">Link works until (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.email}>
              <th scope="row">{r.email}</th>
              <td>{r.roleName}</td>
              <td>{r.invitedBy}</td>
              <td>{r.expired ? `Expired ${shown(r.expiresAt)}` : shown(r.expiresAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SessionTable(props: FormProps & { rows: readonly SessionRow[]; current: string | null }) {
  if (props.rows.length === 0) return <p className="admin-muted">Nobody is signed in.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="admin-sr-only">Sessions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Staff member</th>
            <th scope="col">Started (UTC)</th>
            <th scope="col">Last seen (UTC)</th>
            <th scope="col">Browser</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">
                {r.email}
                {r.id === props.current ? <span className="admin-muted">{' (this browser)'}</span> : null}
              </th>
              <td>{shown(r.startedAt)}</td>
              <td>{shown(r.lastSeenAt)}</td>
              <td className="admin-user-agent">{r.userAgent ?? '—'}</td>
              <td>
                <form
                  className="admin-inline-form"
                  method="post"
                  action={`/admin/staff/${r.userId}/sessions/${r.id}/revoke`}
                >
                  <Crumb crumb={props.crumb} crumbField={props.crumbField} />
                  <button type="submit" className="admin-button admin-button-quiet">
                    {`Sign out`}
                    <span className="admin-sr-only">{` this session of ${r.email}`}</span>
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
