/**
 * The owner's inventory (/admin/inventory): the filters and search, the table of variants with a small form per row
 * (set to N, or adjust by ±N, with a reason — plain forms that work without JavaScript), and a variant's history.
 */
import { AdminTableBox } from './AdminFrame';
export interface InventoryRow {
  sku: string;
  productName: string;
  attributes: Record<string, string>;
  qtyInStock: number | null;
  soldOut: boolean;
  low: boolean;
}

export interface InventoryMovementRow {
  id: string;
  at: string;
  delta: number;
  qtyAfter: number;
  reason: string;
  note: string | null;
  orderId: string | null;
  actor: string | null;
}

const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'sold-out', label: 'Sold out' },
  { value: 'low', label: 'Low stock' },
] as const;

export const variantLabel = (attributes: Record<string, string>): string =>
  Object.entries(attributes)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

export const stockText = (qty: number | null): string => (qty === null ? 'Unlimited' : String(qty));

export function InventoryFilters(props: { filter: string; q: string; threshold: number }) {
  return (
    <form className="admin-filters" method="get" action="/admin/inventory">
      <label>
        {'Show '}
        <select name="filter" defaultValue={props.filter}>
          {FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.value === 'low' ? `${f.label} (${props.threshold} or fewer)` : f.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {'Search '}
        <input type="search" name="q" defaultValue={props.q} placeholder="Product name or SKU" />
      </label>
      <button type="submit" className="admin-button">
        Apply
      </button>
    </form>
  );
}

/** The per-row form: a number, set or adjust, a reason. */
export function StockForm(props: { sku: string; crumb: string; crumbField: string; back: string; canEdit: boolean }) {
  if (!props.canEdit) return null;
  const id = `stock-${props.sku.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <form
      className="admin-form admin-stock-form"
      method="post"
      action={`/admin/inventory/${encodeURIComponent(props.sku)}`}
    >
      <input type="hidden" name={props.crumbField} value={props.crumb} />
      <input type="hidden" name="back" value={props.back} />
      <label htmlFor={`${id}-qty`} className="admin-sr-only">{`Units for ${props.sku}`}</label>
      <input id={`${id}-qty`} name="quantity" inputMode="numeric" pattern="[+\-]?[0-9]+" required size={5} />
      <label htmlFor={`${id}-reason`} className="admin-sr-only">{`Reason for ${props.sku}`}</label>
      <input id={`${id}-reason`} name="reason" maxLength={200} placeholder="Reason" size={10} />
      <button type="submit" name="mode" value="set" className="admin-button admin-button-quiet">
        Set
      </button>
      <button type="submit" name="mode" value="adjust" className="admin-button admin-button-quiet">
        Adjust ±
      </button>
    </form>
  );
}

export function InventoryTable(props: {
  rows: readonly InventoryRow[];
  crumb: string;
  crumbField: string;
  back: string;
  canEdit: boolean;
}) {
  if (props.rows.length === 0) return <p className="admin-muted">No variants match.</p>;
  return (
    <AdminTableBox label="Variants table">
      <table className="admin-table">
        <caption className="admin-sr-only">Variants and their stock</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Variant</th>
            <th scope="col">SKU</th>
            <th scope="col" className="num">
              Stock
            </th>
            {props.canEdit ? <th scope="col">Change</th> : null}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.sku}>
              <th scope="row">
                {r.productName}
                {/* On a phone the row header stays in view while the table scrolls to the stock form: it says the
                    variant too (screen readers have the Variant column; admin.css shows this on narrow screens). */}
                {Object.keys(r.attributes).length > 0 ? (
                  <span className="admin-row-variant" aria-hidden="true">
                    {variantLabel(r.attributes)}
                  </span>
                ) : null}
              </th>
              <td>{variantLabel(r.attributes)}</td>
              <td>
                <a href={`/admin/inventory/${encodeURIComponent(r.sku)}`}>{r.sku}</a>
              </td>
              <td className="num">
                {stockText(r.qtyInStock)}
                {r.soldOut ? (
                  <>
                    {' '}
                    <span className="admin-badge admin-badge-sold-out">Sold out</span>
                  </>
                ) : null}
                {r.low ? (
                  <>
                    {' '}
                    <span className="admin-badge admin-badge-low">Low</span>
                  </>
                ) : null}
              </td>
              {props.canEdit ? (
                <td>
                  <StockForm
                    sku={r.sku}
                    crumb={props.crumb}
                    crumbField={props.crumbField}
                    back={props.back}
                    canEdit={props.canEdit}
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

const REASONS: Record<string, string> = {
  sale: 'Sale',
  renewal: 'Subscription renewal',
  refund: 'Refund',
  import: 'Import',
  edit: 'Edit',
};

export function MovementTable(props: { movements: readonly InventoryMovementRow[] }) {
  if (props.movements.length === 0) return <p className="admin-muted">No stock changes recorded yet.</p>;
  return (
    <AdminTableBox label="Stock history table">
      <table className="admin-table">
        <caption className="admin-sr-only">Stock history, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When (UTC)</th>
            <th scope="col">What</th>
            <th scope="col" className="num">
              Change
            </th>
            <th scope="col" className="num">
              Stock after
            </th>
            <th scope="col">Who</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {props.movements.map((m) => (
            <tr key={m.id}>
              <td>{m.at.slice(0, 19).replace('T', ' ')}</td>
              <td>{REASONS[m.reason] ?? m.reason}</td>
              <td className="num">{m.delta > 0 ? `+${m.delta}` : String(m.delta)}</td>
              <td className="num">{String(m.qtyAfter)}</td>
              <td>{m.actor ?? 'The shop'}</td>
              <td>{m.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </AdminTableBox>
  );
}
