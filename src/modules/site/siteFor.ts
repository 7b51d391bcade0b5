/** The site a command's `--site` option names, else the default one (as `vitrine export` chooses it). */
import { UserError } from '../../platform/cli/command';
import { printable } from '../../platform/cli/table';
import type { DbHandle } from '../../platform/db/connect';
import { findSiteByHost, getSite, type Site } from './sites';

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
