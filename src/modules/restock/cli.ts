/**
 * `vitrine restock [list] [--site ID] [--product ID]`: the restock sign-ups by product and variant — shoppers waiting,
 * e-mailed, the stock now, the last restock (import or refund) — and with --product each sign-up too.
 * `vitrine restock send --product ID --variant ID [--site ID] [--all]`: e-mails the variant's waiting shoppers that it
 * is back, as many as units in stock (oldest first; --all: every one), with progress; sent at once through SMTP_URL
 * when it is set, else they wait in the outbox for the server. Each batch writes its audit entry, by 'vitrine command'
 * (as /admin's 'Send now' does by its staff member).
 */
import { listRestockGroups, listRestockSignUps, type RestockGroup, type RestockSignUp } from './lists';
import { sendRestockNotifications } from './send';
import { restockSentAudit } from './sendAudit';
import { COMMAND_ACTOR } from '../admin';
import { drainOutbox } from '../../platform/mail/outbox';
import { smtpTransport } from '../../platform/mail/transport';
import { listSites, type Site } from '../site';
import type { DbHandle } from '../../platform/db/connect';
import { defineCommand, UsageError, UserError, type Command } from '../../platform/cli/command';
import { loadSettings, redacted } from '../../config';
import { withDatabase } from '../../platform/cli/database';
import { siteFor } from '../site';
import { formatTable, printable } from '../../platform/cli/table';

const time = (iso: string | null): string => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

/** Every page of a list (the service pages by 50). */
async function allGroups(handle: DbHandle, siteId: string, productId: string | undefined): Promise<RestockGroup[]> {
  const groups: RestockGroup[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listRestockGroups(handle.db, siteId, { productId, cursor });
    if (!page.ok) throw new Error(page.error.message);
    groups.push(...page.value.signUpGroups);
    if (!page.value.hasNextPage || page.value.nextPageCursor === null) return groups;
    cursor = page.value.nextPageCursor;
  }
}

async function allSignUps(handle: DbHandle, siteId: string, group: RestockGroup): Promise<RestockSignUp[]> {
  const signUps: RestockSignUp[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listRestockSignUps(handle.db, siteId, group, { cursor });
    if (!page.ok) throw new Error(page.error.message);
    signUps.push(...page.value.signUps);
    if (!page.value.hasNextPage || page.value.nextPageCursor === null) return signUps;
    cursor = page.value.nextPageCursor;
  }
}

const listCommand = defineCommand({
  name: 'restock list',
  options: {
    site: { type: 'string', value: 'ID', description: 'only the sign-ups of this site' },
    product: { type: 'string', value: 'ID', description: "only this product's sign-ups, each of them listed" },
  },
  async run({ options }, io) {
    return withDatabase(loadSettings(), io, async (handle) => {
      const sites: Site[] =
        options.site !== undefined ? [await siteFor(handle, options.site)] : await listSites(handle.db);
      const rows: { site: Site; group: RestockGroup }[] = [];
      for (const site of sites)
        for (const group of await allGroups(handle, site.id, options.product)) rows.push({ site, group });
      if (rows.length === 0) {
        io.out(
          options.product !== undefined
            ? `No restock sign-ups for product '${printable(options.product)}'.`
            : 'No restock sign-ups yet.',
        );
        return 0;
      }
      const table = formatTable(
        [
          { header: 'SITE' },
          { header: 'PRODUCT', maxWidth: 40 },
          { header: 'VARIANT', maxWidth: 30 },
          { header: 'WAITING', align: 'right' },
          { header: 'E-MAILED', align: 'right' },
          { header: 'STOCK', align: 'right' },
          { header: 'RESTOCKED (UTC)' },
        ],
        rows.map(({ site, group: g }) => [
          site.id,
          `${g.productName ?? '(removed)'} [${g.productId}]`,
          g.variantLabel === g.variantId ? g.variantId : `${g.variantLabel} [${g.variantId}]`,
          String(g.waitingCount),
          String(g.notifiedCount),
          g.qtyInStock === null ? 'unlimited' : String(g.qtyInStock),
          g.restockedAt ? `${time(g.restockedAt)} (${g.restockSource ?? '?'})` : '',
        ]),
      );
      for (const line of table) io.out(line);
      if (options.product === undefined) return 0;
      for (const { site, group } of rows) {
        io.out('');
        io.out(
          `${printable(group.variantLabel)} [${printable(group.variantId)}]${sites.length > 1 ? ` on site '${printable(site.id)}'` : ''}:`,
        );
        const signUps = await allSignUps(handle, site.id, group);
        const lines = formatTable(
          [
            { header: 'E-MAIL', maxWidth: 60 },
            { header: 'SIGNED UP (UTC)' },
            { header: 'E-MAILED (UTC)' },
            { header: 'MAILING LIST' },
          ],
          signUps.map((s) => [s.email, time(s.createdAt), time(s.notifiedAt), s.isJoinMailingList ? 'yes' : '']),
        );
        for (const line of lines) io.out(`  ${line}`);
      }
      return 0;
    });
  },
});

const sendCommand = defineCommand({
  name: 'restock send',
  options: {
    product: { type: 'string', value: 'ID', description: 'the product' },
    variant: { type: 'string', value: 'ID', description: 'its variant that is back in stock' },
    site: { type: 'string', value: 'ID', description: 'the site (default: the default one)' },
    all: { type: 'boolean', description: 'e-mail every waiting shopper, not only as many as units in stock' },
  },
  async run({ options }, io) {
    const { all, product: productId, variant: variantId } = options;
    if (productId === undefined || variantId === undefined) {
      throw new UsageError(
        `'restock send' needs the variant: vitrine restock send --product ID --variant ID [--site ID] [--all]`,
      );
    }
    const config = loadSettings();
    return withDatabase(config, io, async (handle) => {
      const site = await siteFor(handle, options.site);
      io.out(
        `Sending the restock e-mails of ${printable(productId)} / ${printable(variantId)} on site '${printable(site.id)}'${all ? ' to every waiting shopper' : ''}…`,
      );
      const result = await sendRestockNotifications(
        handle.db,
        site,
        { productId, variantId },
        {
          all,
          onProgress: (n) => io.out(`  ${n} e-mail${n === 1 ? '' : 's'} queued…`),
          onBatch: restockSentAudit(site.id, variantId, COMMAND_ACTOR),
        },
      );
      if (!result.ok) throw new UserError(result.error.message);
      const r = result.value;
      const item = `${printable(r.productName)} (${printable(r.variantLabel)})`;
      const stock = r.qtyInStock === null ? 'unlimited stock' : `${r.qtyInStock} in stock`;
      if (r.sent === 0) {
        if (r.waiting === 0) io.out(`Nothing to send: nobody is waiting for ${item}.`);
        else if (r.qtyInStock === 0)
          io.out(
            `Nothing to send: ${item} has no units in stock (${r.waiting} waiting). Restock it first, or use --all to e-mail every waiting shopper.`,
          );
        else
          io.out(
            `Nothing to send: the ${stock} of ${item} are spoken for by the shoppers e-mailed since it came back (${r.waiting} waiting; --all e-mails them all).`,
          );
        return 0;
      }
      io.out(
        `Queued ${r.sent} restock e-mail${r.sent === 1 ? '' : 's'} for ${item} (${stock}); ${r.waiting} still waiting.`,
      );
      if (config.smtpUrl === undefined) {
        io.out(
          "They wait in the outbox (SMTP_URL is not set here): 'vitrine serve' with SMTP_URL sends them, or 'vitrine outbox send'.",
        );
        return 0;
      }
      const drained = await drainOutbox(handle.db, smtpTransport(config.smtpUrl, config.mailFrom), {
        onlyIds: r.outboxIds,
        includeWaiting: true,
        limit: r.outboxIds.length,
      });
      for (const problem of drained.errors)
        io.err(`vitrine: ${problem.id} to ${printable(problem.to)} not sent: ${printable(problem.error)}`);
      io.out(
        `Sent ${drained.sent} of ${r.sent} through ${redacted(config.smtpUrl)}${drained.retried > 0 ? `; ${drained.retried} will be retried by the outbox` : ''}.`,
      );
      return drained.retried + drained.failed > 0 ? 1 : 0;
    });
  },
});

export const commands: readonly Command[] = [listCommand, sendCommand];
