/**
 * `vitrine submissions [--form ID] [--site ID] [--format table|csv]`: the form submissions, oldest first; CSV (one
 * column per answer title, safe to open in a spreadsheet: see src/core/csv.ts) for exporting.
 * `vitrine subscribers [--site ID] [--status pending|confirmed] [--format table|csv]`: the newsletter's mailing list.
 */
import { toCsv } from '../../core/csv';
import type { MailingListStatus } from './tables';
import { listSubscribers } from './newsletter';
import { listSubmissions } from './submissions';
import { loadSettings, parseOptions, UsageError, withDatabase, type CliIo } from '../../cli/run';
import { formatTable, printable } from '../../platform/cli/table';

const formatOf = (value: string | undefined): 'table' | 'csv' => {
  if (value === undefined || value === 'table') return 'table';
  if (value === 'csv') return 'csv';
  throw new UsageError(`option '--format' must be table or csv, not '${printable(value)}'`);
};

export async function submissionsCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseOptions('submissions', args, ['--form', '--site', '--format']);
  const format = formatOf(options['--format']);
  return withDatabase(loadSettings(), io, async (handle) => {
    const submissions = await listSubmissions(handle.db, {
      ...(options['--site'] !== undefined ? { siteId: options['--site'] } : {}),
      ...(options['--form'] !== undefined ? { formId: options['--form'] } : {}),
    });
    const titles = [...new Set(submissions.flatMap((s) => s.answers.map((a) => a.title)))];
    const answerOf = (s: (typeof submissions)[number], title: string) =>
      s.answers.find((a) => a.title === title)?.lines.join('\n') ?? '';
    if (format === 'csv') {
      const header = ['Submitted (UTC)', 'Site', 'Form', 'Page', ...titles];
      const rows = submissions.map((s) => [
        s.createdAt,
        s.siteId,
        s.formId,
        s.pagePath ?? '',
        ...titles.map((t) => answerOf(s, t)),
      ]);
      io.out(toCsv(header, rows).replace(/\r\n$/, ''));
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
}

export async function subscribersCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseOptions('subscribers', args, ['--site', '--status', '--format']);
  const format = formatOf(options['--format']);
  const status = options['--status'];
  if (status !== undefined && status !== 'pending' && status !== 'confirmed') {
    throw new UsageError(`option '--status' must be pending or confirmed, not '${printable(status)}'`);
  }
  return withDatabase(loadSettings(), io, async (handle) => {
    const subscribers = await listSubscribers(handle.db, {
      ...(options['--site'] !== undefined ? { siteId: options['--site'] } : {}),
      ...(status !== undefined ? { status: status as MailingListStatus } : {}),
    });
    const rows = subscribers.map((s) => [s.email, s.status, s.siteId, s.createdAt, s.confirmedAt ?? '']);
    if (format === 'csv') {
      io.out(toCsv(['E-mail', 'Status', 'Site', 'Signed up (UTC)', 'Confirmed (UTC)'], rows).replace(/\r\n$/, ''));
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
}
