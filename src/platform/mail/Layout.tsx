/**
 * The one layout of every e-mail: the shop's name at the top, the message in a white card at most 600 px wide, and
 * a footer (the e-mail's own notes, then the shop's name). Tables and inline styles only, as mail clients need; it
 * reads the same in a phone's 390 px as on a desktop.
 *
 * In the text part the layout adds nothing but the message's blocks, the footer's notes and, when `signOff`, the shop's
 * name as the last line (the texts some e-mails have always ended with).
 */
import type { ReactNode } from 'react';
import { withText } from './render';
import { FONT, INK, LINE, MUTED, PAGE } from './styles';

export interface LayoutProps {
  /** The shop's name (the site's title), shown at the top and in the footer. */
  shopName: string;
  /** The e-mail's subject: the HTML document's title. */
  subject: string;
  children: ReactNode;
  /** Notes under the message (why this e-mail came, how to stop it). */
  footer?: ReactNode;
  /** The text part ends with the shop's name. */
  signOff?: boolean;
}

const frame = { width: '100%', borderCollapse: 'collapse' } as const;

export const Layout = withText(
  ({ shopName, subject, children, footer }: LayoutProps) => (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{subject}</title>
      </head>
      <body
        style={{
          margin: 0,
          padding: 0,
          background: PAGE,
          color: INK,
          fontFamily: FONT,
          fontSize: '16px',
          lineHeight: 1.5,
        }}
      >
        <table role="presentation" width="100%" style={{ ...frame, background: PAGE }}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: '24px 12px' }}>
                <table role="presentation" width="100%" style={{ ...frame, maxWidth: '600px' }}>
                  <tbody>
                    <tr>
                      <td
                        style={{
                          padding: '0 4px 12px',
                          fontSize: '18px',
                          fontWeight: 'bold',
                          textAlign: 'left',
                          color: INK,
                        }}
                      >
                        {shopName}
                      </td>
                    </tr>
                    <tr>
                      <td
                        style={{
                          // The last paragraph's own margin closes the card.
                          padding: '24px 24px 8px',
                          background: '#ffffff',
                          border: `1px solid ${LINE}`,
                          borderRadius: '8px',
                          textAlign: 'left',
                        }}
                      >
                        {children}
                      </td>
                    </tr>
                    <tr>
                      <td style={{ padding: '16px 4px 0', color: MUTED, fontSize: '13px', textAlign: 'left' }}>
                        {footer}
                        <p style={{ margin: 0 }}>{shopName}</p>
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  ),
  ({ shopName, children, footer, signOff }, read) => [
    ...read.blocks(children),
    ...read.blocks(footer),
    ...(signOff ? [shopName] : []),
  ],
);
