/**
 * The staff's invitation e-mail: who invited them, as what, and the one-time link that sets their password. Written to
 * the outbox rendered (in the invitation's own transaction), so it needs no entry in src/modules/mailKinds.ts.
 */
import { Heading, Link, Paragraph } from '../../platform/mail/blocks';
import { Layout } from '../../platform/mail/Layout';
import { oneLine, renderMail, type RenderedEmail } from '../../platform/mail/render';

export const STAFF_INVITE_KIND = 'staff-invite';

export interface InviteMailContext {
  siteTitle: string;
  /** Who invited (an e-mail), or null for a `vitrine` command. */
  invitedBy: string | null;
  /** The role's name ('store-manager'). */
  role: string;
  /** The one-time link (absolute URL). */
  link: string;
  /** When the link stops working (ISO-8601 UTC). */
  expiresAt: string;
}

/** '2026-05-01 14:03 UTC' from an ISO time. */
const shownTime = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export const inviteSubject = (siteTitle: string): string => `You are invited to the staff of ${oneLine(siteTitle)}`;

export function staffInviteEmail(ctx: InviteMailContext): RenderedEmail {
  const subject = inviteSubject(ctx.siteTitle);
  const who = ctx.invitedBy ? `${ctx.invitedBy} invited you` : 'You are invited';
  const lead = `${who} to help run ${ctx.siteTitle} as ${ctx.role}.`;
  const limit = `The link works once, until ${shownTime(ctx.expiresAt)}. If you did not expect this e-mail, ignore it: nothing happens until the link is used.`;
  return renderMail(
    subject,
    <Layout shopName={ctx.siteTitle} subject={subject}>
      <Heading text={lead}>You are invited</Heading>
      <Paragraph text={lead}>{lead}</Paragraph>
      <Paragraph spaced>
        <Link href={ctx.link} text="Set your password">
          Set your password and sign in
        </Link>
      </Paragraph>
      <Paragraph muted text={limit}>
        {limit}
      </Paragraph>
    </Layout>,
  );
}
