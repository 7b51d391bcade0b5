/** What several commands need about the shop: the site a `--site` option names, and amounts as the shopper reads them. */
import { DEFAULT_CURRENCY, parseCurrencyCode } from '../core/currency';
import { formatMoney } from '../core/money';
import type { DbHandle } from '../platform/db/connect';
import { findSiteByHost, getSite, type Site } from '../modules/site';
import { UserError } from '../platform/cli/command';
import { printable } from '../platform/cli/table';

/** An amount in minor units of a stored currency code, formatted ('$25.00'). */
export const money = (currency: string, minorUnits: number): string =>
  formatMoney({ minorUnits, currency: parseCurrencyCode(currency) ?? DEFAULT_CURRENCY });

/** The site named by --site, else the default one (as `export` chooses it). */
export async function siteFor(handle: DbHandle, siteId: string | undefined): Promise<Site> {
  if (siteId !== undefined) {
    const site = await getSite(handle.db, siteId);
    if (!site) throw new UserError(`there is no site '${printable(siteId)}' in the database`);
    return site;
  }
  const site = await findSiteByHost(handle.db, 'localhost');
  if (!site) throw new UserError('the database holds no site yet; import one first: vitrine import FILE');
  return site;
}
