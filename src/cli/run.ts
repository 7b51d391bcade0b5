/**
 * The `vitrine` commands: the list (each with its usage line and summary, its code loaded only when it runs) and the
 * dispatch. `runCli(argv)` returns the exit code: 0 done, 1 failed (the message says why), 2 wrong usage. User errors
 * print one message, never a stack trace. The parsing, help and errors are src/platform/cli's; each command is
 * declared and run by its module's cli.ts (or src/cli/commands/ for the site file, the server and the outbox).
 */
import { ConfigError } from '../config';
import type { CliIo } from '../platform/cli/command';
import { setUpCommandDatabase } from '../platform/cli/database';
import { runCommandLine, type CommandEntry, type Registry } from '../platform/cli/registry';

export { DEMO_SITE_FILE } from './demo';
export { UsageError, UserError, type CliIo } from '../platform/cli/command';

const site = () => import('./commands/site').then((m) => m.commands);
const outbox = () => import('./commands/outbox').then((m) => m.commands);
const orders = () => import('../modules/orders/cli').then((m) => m.commands);
const subscriptions = () => import('../modules/subscriptions/cli').then((m) => m.commands);
const giftCards = () => import('../modules/giftCards/cli').then((m) => m.commands);
const forms = () => import('../modules/forms/cli').then((m) => m.commands);
const cart = () => import('../modules/cart/cli').then((m) => m.commands);
const analytics = () => import('../modules/analytics/cli').then((m) => m.commands);
const siteUsers = () => import('../modules/siteUsers/cli').then((m) => m.commands);
const restock = () => import('../modules/restock/cli').then((m) => m.commands);
const stock = () => import('../modules/catalog/cli').then((m) => m.commands);
const versions = () => import('../modules/site/cli').then((m) => m.commands);

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'serve',
    usage: 'serve [--workers N]',
    summary:
      'Start the storefront (migrates the database; imports the demo site into an empty one); on PostgreSQL one process per core',
    load: () => import('./commands/serve').then((m) => m.commands),
  },
  {
    name: 'import',
    usage: 'import FILE [--stock file|file:SKU,SKU…]',
    summary:
      "Validate a site file and replace that site with it (images are read beside FILE); variants already stored keep their live stock (sales stay sold), new ones take the file's; --stock file takes the file's stock for every variant, file:SKU,SKU for those",
    load: site,
  },
  {
    name: 'export',
    usage: 'export [--site ID] [--out FILE]',
    summary:
      'Write a site as a site file plus its images (default site: the default one; default FILE: ./export/<site id>/site.json)',
    load: site,
  },
  { name: 'migrate', usage: 'migrate', summary: 'Bring the database schema up to date', load: site },
  {
    name: 'versions',
    usage: 'versions [--site ID] [--limit N]',
    summary: 'List the site versions, newest first: number, when, who, source and what changed',
    load: versions,
  },
  {
    name: 'versions diff',
    usage: 'versions diff A B [--site ID]',
    summary: 'Print what changed from version A to version B, per product, page, post, form and setting',
    load: versions,
  },
  {
    name: 'versions restore',
    usage: 'versions restore N [--site ID] [--yes]',
    summary: 'Save version N again as the newest version (live stock stays as sold)',
    load: versions,
  },
  {
    name: 'outbox',
    usage: 'outbox [--status pending|sent|failed] [--site ID] [--limit N]',
    summary: 'List the e-mail outbox, newest first',
    load: outbox,
  },
  { name: 'outbox show', usage: 'outbox show ID', summary: "Print one message's headers and text", load: outbox },
  { name: 'outbox send', usage: 'outbox send', summary: 'Send the pending e-mail now through SMTP_URL', load: outbox },
  {
    name: 'orders',
    usage: 'orders [--site ID] [--status paid|awaiting-payment|refunded] [--limit N]',
    summary: 'List the orders, newest first (every site unless --site)',
    load: orders,
  },
  {
    name: 'orders show',
    usage: 'orders show N [--site ID]',
    summary: 'Print order number N in full (default site: the default one)',
    load: orders,
  },
  {
    name: 'orders refund',
    usage: 'orders refund N [--site ID] [--amount AMOUNT | --line POS:QTY,…] [--reason TEXT] [--restock] [--yes]',
    summary: 'Refund order N (all of it, or lines or an amount) through the provider that took it; asks to confirm',
    load: orders,
  },
  {
    name: 'orders fulfil',
    usage: 'orders fulfil N [--site ID] [--carrier C] [--tracking T] [--no-email]',
    hint: 'orders fulfil N',
    summary:
      'Mark order N fulfilled (shipped), with a carrier and tracking number if given; e-mails the customer unless --no-email',
    load: orders,
  },
  {
    name: 'orders unfulfil',
    usage: 'orders unfulfil N [--site ID]',
    summary: 'Take order N back to pending (undo a fulfil)',
    load: orders,
  },
  {
    name: 'subscriptions',
    usage: 'subscriptions [--site ID] [--status active|past_due|paused|cancelled|completed] [--limit N]',
    summary: 'List the subscriptions, newest first',
    load: subscriptions,
  },
  {
    name: 'subscriptions show',
    usage: 'subscriptions show ID',
    summary: 'Print one subscription with its bills',
    load: subscriptions,
  },
  {
    name: 'subscriptions cancel',
    usage: 'subscriptions cancel ID',
    summary: 'Cancel a subscription (nothing more is charged or sent)',
    load: subscriptions,
  },
  {
    name: 'subscriptions pause',
    usage: 'subscriptions pause ID',
    summary: 'Pause a subscription: it is not billed until resumed',
    load: subscriptions,
  },
  {
    name: 'subscriptions resume',
    usage: 'subscriptions resume ID',
    summary: 'Resume a paused subscription: next billing on its schedule, after now',
    load: subscriptions,
  },
  {
    name: 'subscriptions skip',
    usage: 'subscriptions skip ID',
    summary: 'Skip the next billing of a subscription once (it moves one interval on)',
    load: subscriptions,
  },
  {
    name: 'subscriptions bill',
    usage: 'subscriptions bill [--now DATE]',
    hint: 'subscriptions bill [--now DATE]',
    summary: 'Bill every renewal due now (or at DATE); the server does this every few minutes',
    load: subscriptions,
  },
  {
    name: 'giftcards',
    usage: 'giftcards [--site ID] [--limit N]',
    summary: "List the gift cards: code's last four, initial and current balance, recipient, state",
    load: giftCards,
  },
  {
    name: 'giftcards issue',
    usage: 'giftcards issue --amount 25.00 --email E [--name N] [--message M] [--site ID]',
    hint: 'giftcards issue --amount A --email E',
    summary: 'Issue a gift card by hand: prints its code once and e-mails it to E',
    load: giftCards,
  },
  {
    name: 'giftcards disable',
    usage: 'giftcards disable CARD [--site ID]',
    summary: "Disable a gift card (its id, its code or its code's last four): refused at checkout from now on",
    load: giftCards,
  },
  {
    name: 'submissions',
    usage: 'submissions [--form ID] [--site ID] [--format table|csv]',
    summary: 'List the form submissions, oldest first (CSV: one column per answer, formula-safe)',
    load: forms,
  },
  {
    name: 'subscribers',
    usage: 'subscribers [--site ID] [--status pending|confirmed] [--format table|csv]',
    summary: "List the newsletter's mailing list (pending until the e-mailed link is confirmed)",
    load: forms,
  },
  {
    name: 'carts expire',
    usage: 'carts expire',
    summary: 'Remove expired carts now (open ones untouched for 30 days, empty ones for a day)',
    load: cart,
  },
  {
    name: 'report',
    usage: 'report [--site ID] [--days 30] [--format text|json|html]',
    summary:
      "The shop's analytics: visits, visitors, top pages, the shop funnel, revenue, web vitals (p75 per page) and client errors (html: with a chart)",
    load: analytics,
  },
  {
    name: 'report token',
    usage: 'report token [--site ID]',
    summary: 'Print the address of the report page with a new token (shown once)',
    load: analytics,
  },
  {
    name: 'users',
    usage: 'users [--site ID]',
    summary: 'List the site users (who may sign in at /account/sign-in) and their roles',
    load: siteUsers,
  },
  {
    name: 'users add',
    usage: 'users add --email E --role ROLE [--site ID]',
    hint: 'users add',
    summary:
      'Add a site user (roles: admin, store-manager, viewer, …); the password is taken from VITRINE_USER_PASSWORD, else made and printed once',
    load: siteUsers,
  },
  {
    name: 'users remove',
    usage: 'users remove --email E [--site ID]',
    hint: 'users remove',
    summary: "Remove a site user and end their sessions (never the site's last admin)",
    load: siteUsers,
  },
  {
    name: 'users invite',
    usage: 'users invite --email E --role ROLE [--site ID]',
    hint: 'users invite',
    summary:
      'Invite a staff member: an e-mail (via the outbox) with a link that sets their password, once, within 72 hours',
    load: siteUsers,
  },
  {
    name: 'users role',
    usage: 'users role --email E --role ROLE [--site ID]',
    hint: 'users role',
    summary: "Change a staff member's role (admin, store-manager, viewer, reporting; never the last admin's)",
    load: siteUsers,
  },
  {
    name: 'users sessions',
    usage: 'users sessions [--email E] [--site ID]',
    summary: 'List the signed-in sessions: started, last seen, browser',
    load: siteUsers,
  },
  {
    name: 'users revoke',
    usage: 'users revoke --email E [--session ID] [--site ID]',
    hint: 'users revoke',
    summary: "End one of a user's sessions (--session, from 'users sessions'), or all of them",
    load: siteUsers,
  },
  {
    name: 'restock list',
    aliases: ['restock'],
    usage: 'restock [list] [--site ID] [--product ID]',
    summary:
      'List the restock sign-ups by product and variant: waiting, e-mailed, stock, last restock (every site unless --site; with --product, each sign-up too)',
    load: restock,
  },
  {
    name: 'restock send',
    usage: 'restock send --product ID --variant ID [--site ID] [--all]',
    summary:
      "E-mail the variant's waiting shoppers that it is back in stock: as many as units, oldest first (--all: every one); sent at once through SMTP_URL, else they wait in the outbox",
    load: restock,
  },
  {
    name: 'stock set',
    usage: 'stock set SKU N [--site ID] [--reason TEXT]',
    hint: 'stock set SKU N',
    summary: "Set a variant's stock to N units (recorded in its history and the audit log)",
    load: stock,
  },
  {
    name: 'stock adjust',
    usage: 'stock adjust SKU +N|-N [--site ID] [--reason TEXT]',
    hint: 'stock adjust SKU +N|-N',
    summary: "Add or take N units of a variant's stock (never below 0)",
    load: stock,
  },
  {
    name: 'stock history',
    usage: 'stock history SKU [--site ID]',
    summary: "Print a variant's stock history, newest first: sales, refunds, imports, edits",
    load: stock,
  },
];

const SETTINGS = `Settings (environment):
  DATABASE_URL   SQLite file path or sqlite: URL, or postgres://user:password@host:5432/name (default ./data/vitrine.db)
  PORT, HOST     where serve listens (default 3000 and 0.0.0.0)
  REDIS_URL      redis:// URL shared by several processes: rate limits, and imports seen at once (optional)
  TRUST_PROXY    behind reverse proxies: their number (1) or addresses/CIDR ranges (10.0.0.0/8,127.0.0.1) (default false)
  REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS
                 HTTP limits (default 30000, 72000 and 4096)
  SMTP_URL       smtp:// or smtps:// URL (smtp://user:password@host:587) to send e-mail through (optional;
                 without it e-mail waits in the outbox)
  MAIL_FROM      sender of every e-mail, as shop@example.com or Shop <shop@example.com> (default Vitrine <no-reply@localhost>)
  ANALYTICS_RETENTION_DAYS
                 days of raw analytics events kept; older ones live on as daily roll-ups (default 30)

Docs: docs/site-file.md describes the site file.`;

export const REGISTRY: Registry = {
  program: 'vitrine',
  entries: COMMANDS,
  footer: SETTINGS.split('\n'),
  isUserError: (error) => error instanceof ConfigError,
};

const consoleIo: CliIo = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

export async function runCli(argv: string[], io: CliIo = consoleIo): Promise<number> {
  setUpCommandDatabase(modulesDatabaseSetup);
  return runCommandLine(REGISTRY, argv, io);
}

/** What the modules add to every database a command opens: their kinds of mail, the search index's rebuild. */
async function modulesDatabaseSetup() {
  const [{ registerModuleMailKinds }, { searchFollowUps }] = await Promise.all([
    import('../modules/mailKinds'),
    import('../modules/search'),
  ]);
  registerModuleMailKinds();
  return { followUps: searchFollowUps };
}
