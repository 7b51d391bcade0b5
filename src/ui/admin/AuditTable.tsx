/** The audit log as a table: when, who, what (an owner's sentence), and the fields that changed. */
import { AdminTableBox } from './AdminFrame';
import type { AuditRecord } from '../../modules/admin';

const when = (iso: string) => iso.replace('T', ' ').slice(0, 16) + ' UTC';

const changes = (before: unknown, after: unknown): string => {
  if (before === null && after === null) return '';
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys.map((k) => `${k}: ${JSON.stringify(b[k] ?? null)} → ${JSON.stringify(a[k] ?? null)}`).join('; ');
};

export function AuditTable(props: { records: readonly AuditRecord[]; caption?: string }) {
  if (props.records.length === 0) return <p className="admin-muted">Nothing has been changed yet.</p>;
  return (
    <AdminTableBox label="Audit log table">
      <table className="admin-table">
        {props.caption ? <caption className="admin-sr-only">{props.caption}</caption> : null}
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {props.records.map((r) => (
            <tr key={r.id}>
              <td>
                <time dateTime={r.at}>{when(r.at)}</time>
              </td>
              <td>{r.actor}</td>
              <td>{r.summary}</td>
              <td className="admin-muted">{changes(r.before, r.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </AdminTableBox>
  );
}
