/**
 * The `vitrine` commands. `runCli(argv)` returns the exit code: 0 done, 1 failed (the message says why),
 * 2 wrong usage. User errors print one message, never a stack trace.
 */
import { dirname, join, resolve } from 'node:path';
import { sql } from 'kysely';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, redacted, type Config } from '../config';
import { connect, DatabaseUrlError, type DbHandle } from '../platform/db/connect';
import { MigrationError, migrateToLatest } from '../platform/db/migrations';
import { registerModuleMailKinds } from '../modules/mailKinds';
import { searchFollowUps } from '../modules/search';
import { findSiteByHost, listSites } from '../modules/site';
import { exportSiteToFile, SiteNotFoundError } from '../modules/site';
import { importSiteFile, SiteFileError, type ImportResult } from '../modules/site';
import type { ImportProgress } from '../modules/site';
import { describeImportStock, IMPORT_STOCK_OPTION_FORMS, parseImportStockOption } from '../core/importStock';

export const DEMO_SITE_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'sites', 'demo', 'site.json');

export const USAGE = `Usage: vitrine <command> [options]

Commands:
  serve                       Start the storefront (migrates the database; imports the demo site into an empty one)
  import FILE [--stock file|file:SKU,SKU…]
                              Validate a site file and replace that site with it (images are read beside FILE);
                              variants already stored keep their live stock (sales stay sold), new ones take the
                              file's; --stock file takes the file's stock for every variant, file:SKU,SKU for those
  export [--site ID] [--out FILE]
                              Write a site as a site file plus its images
                              (default site: the default one; default FILE: ./export/<site id>/site.json)
  migrate                     Bring the database schema up to date
  outbox [--status pending|sent|failed] [--site ID] [--limit N]
                              List the e-mail outbox, newest first
  outbox show ID              Print one message's headers and text
  outbox send                 Send the pending e-mail now through SMTP_URL
  orders [--site ID] [--status paid|awaiting-payment|refunded] [--limit N]
                              List the orders, newest first (every site unless --site)
  orders show N [--site ID]   Print order number N in full (default site: the default one)
  orders refund N [--site ID] Refund order N through the payment provider that took it, and put its stock back
  subscriptions [--site ID] [--status active|past_due|cancelled|completed] [--limit N]
                              List the subscriptions, newest first
  subscriptions show ID       Print one subscription with its bills
  subscriptions cancel ID     Cancel a subscription (nothing more is charged or sent)
  subscriptions bill [--now DATE]
                              Bill every renewal due now (or at DATE); the server does this every few minutes
  giftcards [--site ID] [--limit N]
                              List the gift cards: code's last four, initial and current balance, recipient, state
  giftcards issue --amount 25.00 --email E [--name N] [--message M] [--site ID]
                              Issue a gift card by hand: prints its code once and e-mails it to E
  submissions [--form ID] [--site ID] [--format table|csv]
                              List the form submissions, oldest first (CSV: one column per answer, formula-safe)
  subscribers [--site ID] [--status pending|confirmed] [--format table|csv]
                              List the newsletter's mailing list (pending until the e-mailed link is confirmed)
  carts expire                Remove expired carts now (open ones untouched for 30 days, empty ones for a day)
  report [--site ID] [--days 30] [--format text|json|html]
                              The shop's analytics: visits, visitors, top pages, the shop funnel, revenue,
                              web vitals (p75 per page) and client errors (html: with a chart)
  report token [--site ID]    Print the address of the report page with a new token (shown once)
  users [--site ID]           List the site users (who may sign in at /account/sign-in) and their roles
  users add --email E --role ROLE [--site ID]
                              Add a site user (roles: admin, store-manager, viewer, …); the password is taken from
                              VITRINE_USER_PASSWORD, else made and printed once
  users remove --email E [--site ID]
                              Remove a site user and end their sessions
  restock [list] [--site ID] [--product ID]
                              List the restock sign-ups by product and variant: waiting, e-mailed, stock, last
                              restock (every site unless --site; with --product, each sign-up too)
  restock send --product ID --variant ID [--site ID] [--all]
                              E-mail the variant's waiting shoppers that it is back in stock: as many as units, oldest
                              first (--all: every one); sent at once through SMTP_URL, else they wait in the outbox
  help                        Show this help

Settings (environment):
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

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const consoleIo: CliIo = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

/** A wrong command line: printed with a hint, exit code 2. */
export class UsageError extends Error {}
/** A failure whose message is complete for the user: printed as is, exit code 1. */
export class UserError extends Error {}

export async function runCli(argv: string[], io: CliIo = consoleIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case undefined:
        io.err(USAGE);
        return 2;
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return 0;
      case 'serve':
        noArguments('serve', args);
        await serve(loadSettings(), io);
        return 0;
      case 'import':
        return await importCommand(args, io);
      case 'export':
        return await exportCommand(args, io);
      case 'migrate':
        noArguments('migrate', args);
        return await withDatabase(loadSettings(), io, async () => 0);
      case 'outbox':
        // Loaded on use: the command modules import this one.
        return await (await import('./commands/outbox')).outboxCommand(args, io);
      case 'orders':
        return await (await import('../modules/orders/cli')).ordersCommand(args, io);
      case 'submissions':
        return await (await import('../modules/forms/cli')).submissionsCommand(args, io);
      case 'subscribers':
        return await (await import('../modules/forms/cli')).subscribersCommand(args, io);
      case 'giftcards':
        return await (await import('../modules/giftCards/cli')).giftcardsCommand(args, io);
      case 'carts':
        return await (await import('../modules/cart/cli')).cartsCommand(args, io);
      case 'subscriptions':
        return await (await import('../modules/subscriptions/cli')).subscriptionsCommand(args, io);
      case 'report':
        return await (await import('../modules/analytics/cli')).reportCommand(args, io);
      case 'users':
        return await (await import('../modules/siteUsers/cli')).usersCommand(args, io);
      case 'restock':
        return await (await import('../modules/restock/cli')).restockCommand(args, io);
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`vitrine: ${error.message}. Run 'vitrine help' for usage.`);
      return 2;
    }
    if (
      error instanceof UserError ||
      error instanceof SiteFileError ||
      error instanceof SiteNotFoundError ||
      error instanceof ConfigError
    ) {
      io.err(`vitrine: ${error.message}`);
      return 1;
    }
    io.err(`vitrine: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.VITRINE_DEBUG && error instanceof Error && error.stack) io.err(error.stack);
    else io.err('(set VITRINE_DEBUG=1 to see the details)');
    return 1;
  }
}

function noArguments(command: string, args: string[]): void {
  if (args.length) throw new UsageError(`'${command}' takes no arguments, got '${args.join(' ')}'`);
}

export function loadSettings(): Config {
  return loadConfig(process.env);
}

/** Connects and migrates (printing what changed), runs `body`, closes. */
export async function withDatabase(
  config: Config,
  io: CliIo,
  body: (handle: DbHandle) => Promise<number>,
): Promise<number> {
  const handle = await open(config, io);
  try {
    return await body(handle);
  } finally {
    await handle.close();
  }
}

async function open(config: Config, io: CliIo): Promise<DbHandle> {
  // Whatever opens the database may send or show the outbox's mail: the modules' kinds of mail first (their code is
  // loaded only when a message of theirs is sent or shown).
  registerModuleMailKinds();
  let handle: DbHandle;
  try {
    handle = connect(config.databaseUrl);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new UserError(error.message);
    throw error;
  }
  try {
    await sql`select 1`.execute(handle.db);
  } catch (error) {
    await handle.close().catch(() => {});
    throw new UserError(`cannot use the database ${redacted(config.databaseUrl)}: ${databaseProblem(error)}`);
  }
  try {
    const { applied } = await migrateToLatest(handle.db, searchFollowUps);
    io.out(
      applied.length
        ? `Database ${redacted(config.databaseUrl)}: applied ${applied.join(', ')}`
        : `Database ${redacted(config.databaseUrl)} is up to date`,
    );
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    if (error instanceof MigrationError) throw new UserError(error.message);
    throw error;
  }
}

function databaseProblem(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { errors?: Error[] };
  // pg reports a refused connection as an AggregateError (IPv4 and IPv6) with an empty message.
  const message = e.message || e.errors?.map((x) => x.message).join('; ') || e.code || String(error);
  return message;
}

function describeImport(r: ImportResult): string {
  const c = r.counts;
  return (
    `Imported site '${r.site.id}' (${r.site.title}), version ${r.site.version}: ` +
    `${c.products} products, ${c.variants} variants, ${c.collections} collections, ${c.pages} pages, ${c.posts} posts, ${c.forms} forms, ${c.images} images`
  );
}

async function importCommand(args: string[], io: CliIo): Promise<number> {
  if (args.length === 0) throw new UsageError("'import' needs the site file: vitrine import FILE");
  const files: string[] = [];
  const optionArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('-')) files.push(arg);
    else {
      optionArgs.push(arg);
      const next = args[i + 1];
      if (!arg.includes('=') && next !== undefined && !next.startsWith('-')) optionArgs.push(args[++i] as string);
    }
  }
  const stockOption = parseOptions('import', optionArgs, ['--stock'])['--stock'];
  const stock = stockOption === undefined ? 'live' : parseImportStockOption(stockOption);
  if (stock === undefined)
    throw new UsageError(`option '--stock' must be ${IMPORT_STOCK_OPTION_FORMS}, not '${stockOption}'`);
  if (files.length === 0) throw new UsageError("'import' needs the site file: vitrine import FILE");
  if (files.length > 1) throw new UsageError(`'import' takes one site file, got ${files.length}`);
  const file = files[0] as string;
  const config = loadSettings();
  return withDatabase(config, io, async (handle) => {
    io.out(`Reading ${file} and its images…`);
    const result = await importSiteFile(handle.db, file, { progress: importProgress(io), stock });
    io.out(describeImport(result));
    for (const line of describeImportStock(result.stock)) io.out(line);
    await announceSiteChange(config, result.site.id, io);
    return 0;
  });
}

/** Rows stored before a table's progress is worth telling (the demo's import says nothing until it is done). */
const PROGRESS_FROM_ROWS = 1000;

/**
 * A large import's progress, as lines: each big table every tenth of its rows ('  variants: 12,000 of 60,000'), then
 * the steps after it. A small import prints none of it.
 */
function importProgress(io: CliIo): ImportProgress {
  const tenths = new Map<string, number>();
  let large = false;
  return (step, done, total) => {
    if (done === undefined || total === undefined) {
      if (large) io.out(`  ${step}…`);
      return;
    }
    if (total < PROGRESS_FROM_ROWS) return;
    large = true;
    const tenth = Math.floor((done * 10) / total);
    if (tenth <= (tenths.get(step) ?? 0) && done !== total) return;
    if (tenths.get(step) === 10) return;
    tenths.set(step, tenth);
    io.out(`  ${step}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
  };
}

/**
 * Tells running servers (other processes) to drop their cached site at once, through Redis when REDIS_URL is set.
 * Without Redis, or when it is down, they see the new version within SITE_CACHE_TTL_MS anyway: a warning, not a failure.
 */
async function announceSiteChange(config: Config, siteId: string, io: CliIo): Promise<void> {
  if (config.redisUrl === undefined) return;
  const { publishSiteChange, SITE_CACHE_TTL_MS } = await import('../modules/site/siteCache');
  if (!(await publishSiteChange(config.redisUrl, siteId))) {
    io.err(
      `vitrine: could not notify running servers through Redis (${redacted(config.redisUrl)}); they will show the new version within ${SITE_CACHE_TTL_MS / 1000} s`,
    );
  }
}

async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseOptions('export', args, ['--site', '--out']);
  return withDatabase(loadSettings(), io, async (handle) => {
    let siteId = options['--site'];
    if (siteId === undefined) {
      const site = await findSiteByHost(handle.db, 'localhost');
      if (!site) throw new UserError('the database holds no site yet; import one first: vitrine import FILE');
      siteId = site.id;
    }
    const out = resolve(options['--out'] ?? join('export', siteId, 'site.json'));
    io.out(`Exporting site '${siteId}'…`);
    const result = await exportSiteToFile(handle.db, siteId, out);
    io.out(`Exported site '${siteId}' to ${out} with ${result.assets.length} images`);
    return 0;
  });
}

export function parseOptions(command: string, args: string[], names: string[]): Record<string, string | undefined> {
  const found: Record<string, string | undefined> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (!names.includes(name)) {
      throw new UsageError(
        name.startsWith('-')
          ? `unknown option '${name}' for '${command}'`
          : `unexpected argument '${arg}' for '${command}'`,
      );
    }
    const value = inline ?? args[++i];
    if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) {
      throw new UsageError(`option '${name}' needs a value`);
    }
    if (found[name] !== undefined) throw new UsageError(`option '${name}' is given twice`);
    found[name] = value;
  }
  return found;
}

async function serve(config: Config, io: CliIo): Promise<void> {
  // React picks its build from NODE_ENV when first loaded (by the server import below). Its development build, the
  // default when NODE_ENV is unset, spends most of a page render on development checks (docs/performance.md), so
  // serve runs the production build unless NODE_ENV is set. Secure cookies still follow the NODE_ENV that was given.
  const givenNodeEnv = process.env.NODE_ENV;
  if (!givenNodeEnv) process.env.NODE_ENV = 'production';
  // Checked before anything starts: a wrong setting is a clear error, not a job failing later.
  const analyticsRetention = (await import('../modules/analytics/settings')).analyticsRetentionDays();
  const handle = await open(config, io);
  let closing = false;
  try {
    if ((await listSites(handle.db)).length === 0) {
      io.out('The database holds no site: importing the demo site…');
      io.out(describeImport(await importSiteFile(handle.db, DEMO_SITE_FILE)));
    }
    const { buildApp } = await import('../server/app');
    const { paymentEnvOf } = await import('../modules/payments');
    const { captchaEnvOf } = await import('../modules/forms/captcha');
    const app = await buildApp({
      db: handle.db,
      engine: handle.engine,
      logger: true,
      trustProxy: config.trustProxy,
      ...(config.httpLimits ? { httpLimits: config.httpLimits } : {}),
      secureCookies: givenNodeEnv === 'production',
      ...(config.redisUrl !== undefined ? { redisUrl: config.redisUrl } : {}),
      paymentEnv: paymentEnvOf(config),
      captchaEnv: captchaEnvOf(config),
      ...(config.publicUrl !== undefined ? { publicUrl: config.publicUrl } : {}),
    });
    let jobs: { stop(): Promise<void> } | undefined = undefined;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      io.out(`Received ${signal}, closing…`);
      await app.close().catch(() => {});
      await jobs?.stop().catch(() => {});
      await handle.close().catch(() => {});
      process.exit(0);
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new UserError(`port ${config.port} on ${config.host} is already in use; set PORT to another port`);
      if (code === 'EACCES') throw new UserError(`not allowed to listen on port ${config.port}; use a port above 1023`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
        throw new UserError(`cannot listen on HOST '${config.host}': no such address here`);
      throw error;
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    io.out(`Vitrine is listening on http://${shown}:${port}`);
    if (config.trustProxy === true) {
      io.err(
        'vitrine: warning: TRUST_PROXY=true believes every X-Forwarded-For hop, which a client can write; set the number of proxies (1) or their addresses instead',
      );
    }
    const { startJobRunner } = await import('../platform/jobs/runner');
    const { outboxJob } = await import('../platform/mail/outboxJob');
    const { abandonedPaymentsJob } = await import('../modules/payments');
    const { analyticsRollupJob } = await import('../modules/analytics');
    const { cartExpiryJob } = await import('../modules/cart');
    const { sessionExpiryJob } = await import('../modules/siteUsers');
    const { restockJob } = await import('../modules/restock');
    const { subscriptionBillingJob } = await import('../modules/subscriptions');
    const { smtpTransport } = await import('../platform/mail/transport');
    const transport = config.smtpUrl !== undefined ? smtpTransport(config.smtpUrl, config.mailFrom) : undefined;
    jobs = startJobRunner({
      jobs: [
        outboxJob(handle.db, transport, app.log),
        abandonedPaymentsJob(handle.db, paymentEnvOf(config), app.log),
        cartExpiryJob(handle.db, app.log),
        sessionExpiryJob(handle.db, app.log),
        subscriptionBillingJob(handle.db, paymentEnvOf(config), app.log, config.publicUrl),
        analyticsRollupJob(handle.db, analyticsRetention, app.log),
        restockJob(handle.db, app.log),
      ],
      log: app.log,
    });
    io.out(
      config.smtpUrl !== undefined
        ? `E-mail is sent through ${redacted(config.smtpUrl)} from ${config.mailFrom}`
        : "E-mail is kept in the outbox (SMTP_URL is not set): 'vitrine outbox' lists it",
    );
  } catch (error) {
    if (!closing) await handle.close().catch(() => {});
    throw error;
  }
}
