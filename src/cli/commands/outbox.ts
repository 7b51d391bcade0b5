/**
 * `vitrine outbox`: the e-mail waiting, sent or given up on. `outbox` lists (newest first), `outbox show ID` prints one
 * message's headers and text (an order's e-mail rendered from the stored order, as it is sent), `outbox send` sends
 * what is pending now through SMTP_URL (the job of `vitrine serve`, run once, also sending the messages that wait for
 * a retry).
 */
import { loadSettings, redacted } from '../../config';
import {
  drainOutbox,
  getOutboxMessage,
  listOutbox,
  type OutboxMessage,
  type OutboxStatus,
} from '../../platform/mail/outbox';
import { smtpTransport } from '../../platform/mail/transport';
import { getSite } from '../../modules/site';
import { defineCommand, UserError, type Command } from '../../platform/cli/command';
import { formatTable, printable } from '../../platform/cli/table';
import { withDatabase } from '../../platform/cli/database';

const STATUSES: readonly OutboxStatus[] = ['pending', 'sent', 'failed'];
/** Messages one `outbox send` handles; run it again for more. */
const SEND_LIMIT = 1000;

const ID = /^[A-Za-z0-9_-]{22}$/;

/** '2025-05-01 14:03:07' from an ISO time (UTC). */
const shownTime = (iso: string | null): string => (iso ? iso.slice(0, 19).replace('T', ' ') : '');

const listCommand = defineCommand({
  name: 'outbox',
  options: {
    status: { type: 'string', choices: STATUSES, description: 'only the messages of this status' },
    site: { type: 'string', value: 'ID', description: 'only the messages of this site' },
    limit: { type: 'integer', min: 1, max: 10_000, default: 50, description: 'at most this many messages' },
  },
  async run({ options }, io) {
    const { status, limit, site: siteId } = options;
    return withDatabase(loadSettings(), io, async (handle) => {
      if (siteId !== undefined && !(await getSite(handle.db, siteId)))
        throw new UserError(`there is no site '${printable(siteId)}' in the database`);
      const messages = await listOutbox(handle.db, {
        limit,
        ...(siteId !== undefined ? { siteId } : {}),
        ...(status !== undefined ? { status: status as OutboxStatus } : {}),
      });
      if (messages.length === 0) {
        io.out(
          `No ${status ? `${status} ` : ''}messages in the outbox${siteId !== undefined ? ` for site '${printable(siteId)}'` : ''}.`,
        );
        return 0;
      }
      const table = formatTable(
        [
          { header: 'ID' },
          { header: 'CREATED (UTC)' },
          { header: 'STATUS' },
          { header: 'ATTEMPTS', align: 'right' },
          { header: 'TO', maxWidth: 40 },
          { header: 'SUBJECT', maxWidth: 72 },
        ],
        messages.map((m) => [m.id, shownTime(m.createdAt), m.status, String(m.attempts), m.to, m.subject]),
      );
      for (const line of table) io.out(line);
      if (messages.length === limit) io.out(`(the newest ${limit}; --limit N shows more)`);
      return 0;
    });
  },
});

function statusLine(m: OutboxMessage): string {
  const attempts = `${m.attempts} attempt${m.attempts === 1 ? '' : 's'}`;
  if (m.status === 'pending') return `pending, ${attempts}, next attempt ${shownTime(m.nextAttemptAt)} UTC`;
  if (m.status === 'sent') return `sent ${shownTime(m.sentAt)} UTC, ${attempts}`;
  return `failed, ${attempts} (not tried again)`;
}

const showCommand = defineCommand({
  name: 'outbox show',
  // An id is 22 base64url characters and may start with '-': such an argument is the id, not an option.
  positionals: [{ name: 'ID', what: 'message id', dashValue: ID }],
  async run({ positionals }, io) {
    const id = positionals[0] as string;
    const config = loadSettings();
    return withDatabase(config, io, async (handle) => {
      const m = await getOutboxMessage(handle.db, id);
      if (!m) throw new UserError(`there is no outbox message '${printable(id)}'`);
      const fields: [string, string | null][] = [
        ['Id', m.id],
        ['Site', m.siteId],
        ['Kind', m.kind],
        ['Order', m.orderId],
        ['Status', statusLine(m)],
        ['Created', `${shownTime(m.createdAt)} UTC`],
        ['Last error', m.lastError],
        ['From', config.mailFrom],
        ['To', m.to],
        ['Subject', m.subject],
      ];
      for (const [name, value] of fields) if (value !== null) io.out(`${`${name}:`.padEnd(12)}${printable(value)}`);
      io.out('');
      // An order's e-mail is rendered from the stored order: one whose order is gone has no text to show.
      if (m.renderError !== undefined) io.out(`(no text: ${printable(m.renderError)})`);
      else io.out(printable(m.text, { keepLines: true }).replace(/\n$/, ''));
      return 0;
    });
  },
});

const sendCommand = defineCommand({
  name: 'outbox send',
  details: [
    "The outbox job of 'vitrine serve', run once: it also sends the messages that wait for a retry, at most 1000 at a time.",
  ],
  async run(_args, io) {
    const config = loadSettings();
    if (config.smtpUrl === undefined) {
      throw new UserError(
        'SMTP_URL is needed to send e-mail (e.g. SMTP_URL=smtp://user:password@mail.example.com:587); until it is set, messages wait in the outbox',
      );
    }
    const transport = smtpTransport(config.smtpUrl, config.mailFrom);
    return withDatabase(config, io, async (handle) => {
      io.out(`Sending through ${redacted(config.smtpUrl as string)} from ${config.mailFrom}…`);
      const result = await drainOutbox(handle.db, transport, { includeWaiting: true, limit: SEND_LIMIT });
      for (const problem of result.errors)
        io.err(`vitrine: ${problem.id} to ${printable(problem.to)} not sent: ${printable(problem.error)}`);
      const total = result.sent + result.retried + result.failed;
      if (total === 0) {
        io.out('Nothing to send: no message is pending.');
        return 0;
      }
      io.out(`Sent ${result.sent} of ${total}; ${result.retried} will be retried, ${result.failed} failed for good.`);
      if (total === SEND_LIMIT)
        io.out(`(at most ${SEND_LIMIT} at a time: run 'vitrine outbox send' again for the rest)`);
      return result.retried + result.failed > 0 ? 1 : 0;
    });
  },
});

export const commands: readonly Command[] = [listCommand, showCommand, sendCommand];
