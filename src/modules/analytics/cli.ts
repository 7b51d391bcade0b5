/**
 * `vitrine report [--site ID] [--days 30] [--format text|json|html]`: the shop's report (./report.ts: sales from the
 * orders, visits, funnel, web vitals, errors); `vitrine report token [--site ID]`: the report page's address.
 */
import { reportHtml, reportText } from './reportPage';
import { analyticsReport } from './report';
import { createReportToken } from './reportTokens';
import { REPORT_PAGE_PATH } from './routes';
import { findSiteByHost, getSite } from '../site';
import { loadSettings, parseOptions, UsageError, UserError, withDatabase, type CliIo } from '../../cli/run';
import { printable } from '../../platform/cli/table';
import { ownerOrigin } from '../../core/linkOrigin';

const FORMATS = ['text', 'json', 'html'] as const;
const MAX_DAYS = 3650;

export async function reportCommand(args: string[], io: CliIo): Promise<number> {
  if (args[0] === 'token') return tokenCommand(args.slice(1), io);
  const options = parseOptions('report', args, ['--site', '--days', '--format']);
  const format = options['--format'] ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`option '--format' must be text, json or html, not '${printable(format)}'`);
  const rawDays = options['--days'] ?? '30';
  const days = /^\d{1,4}$/.test(rawDays) ? Number(rawDays) : NaN;
  if (!(days >= 1 && days <= MAX_DAYS))
    throw new UsageError(`option '--days' must be a whole number from 1 to ${MAX_DAYS}, not '${printable(rawDays)}'`);
  // JSON and HTML go to stdout as a document: the database line goes to stderr.
  const quietIo: CliIo = format === 'text' ? io : { out: io.err, err: io.err };
  return withDatabase(loadSettings(), quietIo, async (handle) => {
    const siteId = options['--site'];
    const site = siteId !== undefined ? await getSite(handle.db, siteId) : await findSiteByHost(handle.db, 'localhost');
    if (!site)
      throw new UserError(
        siteId !== undefined
          ? `there is no site '${printable(siteId)}' in the database`
          : 'the database holds no site yet; import one first: vitrine import FILE',
      );
    const report = await analyticsReport(handle.db, {
      siteId: site.id,
      currency: site.currency,
      days,
      now: new Date(),
    });
    if (format === 'json') io.out(JSON.stringify(report, null, 2));
    else if (format === 'html') io.out(reportHtml(report));
    else for (const line of reportText(report)) io.out(printable(line));
    return 0;
  });
}

/** `vitrine report token [--site ID]`: a token for the report page, printed once (stored only hashed). */
async function tokenCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseOptions('report token', args, ['--site']);
  const settings = loadSettings();
  return withDatabase(settings, io, async (handle) => {
    const siteId = options['--site'];
    const site = siteId !== undefined ? await getSite(handle.db, siteId) : await findSiteByHost(handle.db, 'localhost');
    if (!site)
      throw new UserError(
        siteId !== undefined
          ? `there is no site '${printable(siteId)}' in the database`
          : 'the database holds no site yet; import one first: vitrine import FILE',
      );
    const token = await createReportToken(handle.db, site.id);
    const { origin, source } = ownerOrigin(site.domains, settings.port, settings.publicUrl);
    io.out(`The report of site '${site.id}' is at (keep this address secret; it is shown once):`);
    io.out(`${origin}${REPORT_PAGE_PATH}?token=${token}`);
    io.err(
      source === 'public-url'
        ? 'This address is the PUBLIC_URL setting.'
        : source === 'domain'
          ? `This address is the site's domain '${printable(origin.replace(/^https:\/\//, ''))}'; set PUBLIC_URL if the shop is reached at another address.`
          : settings.port > 0
            ? `This address is the local server (vitrine serve on PORT ${settings.port}): it opens on this computer only; set PUBLIC_URL or give the site a domain for an address others can open.`
            : 'PORT is 0 (a free port chosen when the server starts): add the port vitrine serve prints to this address; set PUBLIC_URL or give the site a domain for an address others can open.',
    );
    return 0;
  });
}
