/**
 * `vitrine submissions [--form ID] [--site ID] [--format table|csv]`: the form submissions, oldest first; CSV (one
 * column per answer title, safe to open in a spreadsheet: see src/core/csv.ts) for exporting.
 * `vitrine subscribers [--site ID] [--status pending|confirmed] [--format table|csv]`: the newsletter's mailing list.
 */
import { submissionsToCsv, subscribersToCsv } from './gathered';
import type { MailingListStatus } from './tables';
import { listSubscribers } from './newsletter';
import { listSubmissions } from './submissions';
import { defineCommand, type Command } from '../../platform/cli/command';
import { loadSettings } from '../../config';
import { withDatabase } from '../../platform/cli/database';
import { formatTable } from '../../platform/cli/table';

const FORMAT = {
  type: 'string',
  choices: ['table', 'csv'],
  default: 'table',
  description: 'a table to read, or CSV for a spreadsheet (formula-safe)',
} as const;

const submissionsCommand = defineCommand({
  name: 'submissions',
  options: {
    form: { type: 'string', value: 'ID', description: 'only the submissions of this form' },
    site: { type: 'string', value: 'ID', description: 'only the submissions of this site' },
    format: FORMAT,
  },
  async run({ options }, io) {
    const format = options.format;
    return withDatabase(loadSettings(), io, async (handle) => {
      const submissions = await listSubmissions(handle.db, {
        ...(options.site !== undefined ? { siteId: options.site } : {}),
        ...(options.form !== undefined ? { formId: options.form } : {}),
      });
      if (format === 'csv') {
        io.out(submissionsToCsv(submissions).replace(/\r\n$/, ''));
        return 0;
      }
      if (submissions.length === 0) {
        io.out('No form submissions yet.');
        return 0;
      }
      const table = formatTable(
        [{ header: 'SUBMITTED (UTC)' }, { header: 'SITE' }, { header: 'FORM' }, { header: 'ANSWERS', maxWidth: 100 }],
        submissions.map((s) => [
          s.createdAt.slice(0, 19).replace('T', ' '),
          s.siteId,
          s.formId,
          s.answers.map((a) => `${a.title}: ${a.lines.join(' ')}`).join('; '),
        ]),
      );
      for (const line of table) io.out(line);
      return 0;
    });
  },
});

const subscribersCommand = defineCommand({
  name: 'subscribers',
  options: {
    site: { type: 'string', value: 'ID', description: 'only the subscribers of this site' },
    status: {
      type: 'string',
      choices: ['pending', 'confirmed'],
      description: 'pending: the e-mailed link is not confirmed yet',
    },
    format: FORMAT,
  },
  async run({ options }, io) {
    const { format, status } = options;
    return withDatabase(loadSettings(), io, async (handle) => {
      const subscribers = await listSubscribers(handle.db, {
        ...(options.site !== undefined ? { siteId: options.site } : {}),
        ...(status !== undefined ? { status: status as MailingListStatus } : {}),
      });
      const rows = subscribers.map((s) => [s.email, s.status, s.siteId, s.createdAt, s.confirmedAt ?? '']);
      if (format === 'csv') {
        io.out(subscribersToCsv(subscribers).replace(/\r\n$/, ''));
        return 0;
      }
      if (subscribers.length === 0) {
        io.out('No subscribers yet.');
        return 0;
      }
      for (const line of formatTable(
        [
          { header: 'E-MAIL', maxWidth: 60 },
          { header: 'STATUS' },
          { header: 'SITE' },
          { header: 'SIGNED UP' },
          { header: 'CONFIRMED' },
        ],
        rows,
      ))
        io.out(line);
      return 0;
    });
  },
});

export const commands: readonly Command[] = [submissionsCommand, subscribersCommand];
