/**
 * `vitrine report [--site ID] [--days 30] [--format text|json|html]`: the shop's report (./report.ts: sales from the
 * orders, visits, funnel, web vitals, errors); `vitrine report token [--site ID]`: the report page's address.
 */
import { reportHtml, reportText } from './reportPage';
import { analyticsReport } from './report';
import { createReportToken } from './reportTokens';
import { REPORT_PAGE_PATH } from './routes';
import { findSiteByHost, getSite } from '../site';
import { defineCommand, UserError, type CliIo, type Command } from '../../platform/cli/command';
import { loadSettings } from '../../config';
import { withDatabase } from '../../platform/cli/database';
import { printable } from '../../platform/cli/table';
import { ownerOrigin } from '../../core/linkOrigin';

const MAX_DAYS = 3650;

const SITE = { type: 'string', value: 'ID', description: 'the site (default: the default one)' } as const;

const reportCommand = defineCommand({
  name: 'report',
  options: {
    site: SITE,
    days: { type: 'integer', min: 1, max: MAX_DAYS, default: 30, description: 'the days reported, up to today' },
    format: {
      type: 'string',
      choices: ['text', 'json', 'html'],
      default: 'text',
      description: 'text to read, JSON, or an HTML page with a chart',
    },
  },
  async run({ options }, io) {
    const { format, days } = options;
    // JSON and HTML go to stdout as a document: the database line goes to stderr.
    const quietIo: CliIo = format === 'text' ? io : { out: io.err, err: io.err };
    return withDatabase(loadSettings(), quietIo, async (handle) => {
      const siteId = options.site;
      const site =
        siteId !== undefined ? await getSite(handle.db, siteId) : await findSiteByHost(handle.db, 'localhost');
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
  },
});

/** `vitrine report token [--site ID]`: a token for the report page, printed once (stored only hashed). */
const tokenCommand = defineCommand({
  name: 'report token',
  options: { site: SITE },
  details: ['The token is stored only hashed: keep the address secret.'],
  async run({ options }, io) {
    const settings = loadSettings();
    return withDatabase(settings, io, async (handle) => {
      const siteId = options.site;
      const site =
        siteId !== undefined ? await getSite(handle.db, siteId) : await findSiteByHost(handle.db, 'localhost');
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
  },
});

export const commands: readonly Command[] = [reportCommand, tokenCommand];
