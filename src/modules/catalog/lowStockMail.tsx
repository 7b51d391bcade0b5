/**
 * The daily low-stock e-mail to the shop's admins and store managers (issue 25): the counted variants at or below the
 * store's lowStockThreshold (and above 0: sold-out ones are the inventory's other filter), with a link to the
 * inventory's low-stock list. Written to the outbox rendered, so it needs no entry in src/modules/mailKinds.ts.
 */
import { Heading, Link, Paragraph } from '../../platform/mail/blocks';
import { Layout } from '../../platform/mail/Layout';
import { oneLine, renderMail, withText, type RenderedEmail } from '../../platform/mail/render';
import { cell, numberCell } from '../../platform/mail/styles';

export const LOW_STOCK_KIND = 'low-stock';

export interface LowStockLine {
  sku: string;
  productName: string;
  /** 'Size: M, Colour: Red', or ''. */
  variant: string;
  qtyInStock: number;
}

export interface LowStockContext {
  siteTitle: string;
  threshold: number;
  /** /admin/inventory?filter=low on the owner's origin (absolute URL). */
  inventoryUrl: string;
}

const countText = (n: number): string => (n === 1 ? '1 variant is' : `${n} variants are`);

export const lowStockSubject = (siteTitle: string, count: number): string =>
  `Low stock: ${countText(count)} running out — ${oneLine(siteTitle)}`;

const Lines = withText(
  ({ lines }: { lines: readonly LowStockLine[] }) => (
    <table style={{ width: '100%', borderCollapse: 'collapse', margin: '0 0 24px' }}>
      <caption style={{ textAlign: 'left', fontWeight: 'bold', padding: '0 0 8px' }}>Low on stock</caption>
      <thead>
        <tr>
          <th scope="col" style={{ ...cell, textAlign: 'left' }}>
            Product
          </th>
          <th scope="col" style={{ ...cell, textAlign: 'left' }}>
            SKU
          </th>
          <th scope="col" style={numberCell}>
            In stock
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.sku}>
            <td style={cell}>{line.variant ? `${line.productName} (${line.variant})` : line.productName}</td>
            <td style={cell}>{line.sku}</td>
            <td style={numberCell}>{line.qtyInStock}</td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
  ({ lines }) =>
    lines
      .map(
        (line) =>
          `- ${line.productName}${line.variant ? ` (${line.variant})` : ''}, SKU ${line.sku}: ${line.qtyInStock} in stock`,
      )
      .join('\n'),
);

export function lowStockEmail(lines: readonly LowStockLine[], ctx: LowStockContext): RenderedEmail {
  const subject = lowStockSubject(ctx.siteTitle, lines.length);
  const lead = `${countText(lines.length)} at or below ${ctx.threshold} in stock at ${ctx.siteTitle}.`;
  return renderMail(
    subject,
    <Layout
      shopName={ctx.siteTitle}
      subject={subject}
      footer="You get this e-mail at most once a day, as an admin or store manager of the shop, when something is low on stock."
    >
      <Heading text={lead}>Low stock</Heading>
      <Paragraph text={lead}>{lead}</Paragraph>
      <Lines lines={lines} />
      <Paragraph spaced>
        <Link href={ctx.inventoryUrl} text="Low stock in the inventory">
          See them in the inventory
        </Link>
      </Paragraph>
    </Layout>,
  );
}
