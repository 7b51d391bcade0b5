/**
 * `vitrine serve`: the storefront and its jobs, on a database migrated first (the demo site imported into an empty
 * one). With PostgreSQL, one server process per core (node:cluster: src/platform/http/workers.ts); SQLite has one
 * writer, so it runs one. On SIGTERM a server drains (src/platform/http/gracefulClose.ts): a restart drops nothing.
 */
import { availableParallelism } from 'node:os';
import { loadSettings, redacted, type Config } from '../../config';
import { defineCommand, UserError, type CliIo, type Command } from '../../platform/cli/command';
import { importSiteFile, listSites } from '../../modules/site';
import { DEMO_SITE_FILE } from '../demo';
import { openDatabase } from '../../platform/cli/database';
import { DatabaseUrlError, parseDatabaseUrl, type DbHandle } from '../../platform/db/connect';
import { closeGracefully } from '../../platform/http/gracefulClose';
import { isWorker, runWorkers } from '../../platform/http/workers';
import { describeImport, siteFileErrors } from './site';

const MAX_WORKERS = 64;

const serveCommand = defineCommand({
  name: 'serve',
  options: {
    workers: {
      type: 'integer',
      min: 1,
      max: MAX_WORKERS,
      value: 'N',
      description: 'Server processes (PostgreSQL; default one per core). SQLite runs one: it has one writer',
    },
  },
  details: [
    'SIGTERM or SIGINT: each server finishes the requests under way (SHUTDOWN_TIMEOUT_MS, default 10 s) and ends.',
    'SIGHUP (with workers): restarts the workers one at a time; a new one listens before an old one stops.',
  ],
  async run({ options }, io) {
    const config = loadSettings();
    if (isWorker()) {
      // A restart is the primary's to do (SIGHUP); a terminal's hangup reaches the whole process group.
      process.on('SIGHUP', () => {});
      await serve(config, quietDatabaseIo(io), { worker: true });
      return 0;
    }
    const workers = workerCount(config.databaseUrl, options.workers, io);
    if (workers === 1) {
      await serve(config, io);
      return 0;
    }
    return superviseWorkers(config, workers, io);
  },
});

export const commands: readonly Command[] = [serveCommand];

/** How many processes: --workers N, else one per core on PostgreSQL; one on SQLite, said so when more were asked. */
function workerCount(databaseUrl: string, asked: number | undefined, io: CliIo): number {
  let engine: 'sqlite' | 'postgres';
  try {
    engine = parseDatabaseUrl(databaseUrl).engine;
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new UserError(error.message);
    throw error;
  }
  if (engine === 'postgres') return asked ?? Math.min(availableParallelism(), MAX_WORKERS);
  if (asked !== undefined && asked > 1)
    io.err(
      `vitrine: serving with one process, not ${asked}: a SQLite database has one writer, so more processes would wait on each other's writes. For --workers, use PostgreSQL (DATABASE_URL=postgres://…).`,
    );
  return 1;
}

/** The primary: migrates (and imports the demo into an empty database) once, then runs the workers. */
async function superviseWorkers(config: Config, count: number, io: CliIo): Promise<number> {
  const handle = await openDatabase(config, io);
  try {
    await importDemoIfEmpty(handle, io);
  } finally {
    await handle.close();
  }
  const code = await runWorkers({
    count,
    stopTimeoutMs: config.shutdownTimeoutMs + 5_000,
    log: (line) => io.out(line),
    onListening: (port) => {
      io.out(`Vitrine is listening on ${shownAddress(config.host, port)} with ${count} workers`);
      io.out(mailLine(config));
    },
  });
  process.exit(code);
}

/** A worker prints no 'Database … is up to date': the primary said it once. */
const quietDatabaseIo = (io: CliIo): CliIo => ({
  out: (line) => {
    if (!line.startsWith('Database ')) io.out(line);
  },
  err: io.err,
});

const mailLine = (config: Config): string =>
  config.smtpUrl !== undefined
    ? `E-mail is sent through ${redacted(config.smtpUrl)} from ${config.mailFrom}`
    : "E-mail is kept in the outbox (SMTP_URL is not set): 'vitrine outbox' lists it";

const shownAddress = (host: string, port: number): string =>
  `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;

async function importDemoIfEmpty(handle: DbHandle, io: CliIo): Promise<void> {
  if ((await listSites(handle.db)).length > 0) return;
  io.out('The database holds no site: importing the demo site…');
  io.out(describeImport(await siteFileErrors(() => importSiteFile(handle.db, DEMO_SITE_FILE))));
}

async function serve(config: Config, io: CliIo, { worker = false } = {}): Promise<void> {
  // React picks its build from NODE_ENV when first loaded (by the server import below). Its development build, the
  // default when NODE_ENV is unset, spends most of a page render on development checks (docs/performance.md), so
  // serve runs the production build unless NODE_ENV is set. Secure cookies still follow the NODE_ENV that was given.
  const givenNodeEnv = process.env.NODE_ENV;
  if (!givenNodeEnv) process.env.NODE_ENV = 'production';
  // Checked before anything starts: a wrong setting is a clear error, not a job failing later.
  const analyticsRetention = (await import('../../modules/analytics/settings')).analyticsRetentionDays();
  const handle = await openDatabase(config, io);
  let closing = false;
  try {
    if (!worker) await importDemoIfEmpty(handle, io);
    const { buildApp } = await import('../../server/app');
    const { paymentEnvOf } = await import('../../modules/payments');
    const { captchaEnvOf } = await import('../../modules/forms/captcha');
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
      port: config.port,
    });
    let jobs: { stop(): Promise<void> } | undefined = undefined;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      io.out(`Received ${signal}, finishing the requests under way…`);
      const [closed] = await Promise.all([
        closeGracefully(app, config.shutdownTimeoutMs).catch(() => ({ cut: 0, tookMs: 0 })),
        jobs?.stop().catch(() => {}),
      ]);
      await handle.close().catch(() => {});
      io.out(
        closed.cut > 0
          ? `Closed after ${closed.tookMs} ms; ${closed.cut} connection${closed.cut === 1 ? '' : 's'} still busy at SHUTDOWN_TIMEOUT_MS were cut`
          : `Closed after ${closed.tookMs} ms; every request was answered`,
      );
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
    if (!worker) io.out(`Vitrine is listening on ${shownAddress(config.host, port)}`);
    if (config.trustProxy === true && !worker) {
      io.err(
        'vitrine: warning: TRUST_PROXY=true believes every X-Forwarded-For hop, which a client can write; set the number of proxies (1) or their addresses instead',
      );
    }
    const { startJobRunner } = await import('../../platform/jobs/runner');
    const { outboxJob } = await import('../../platform/mail/outboxJob');
    const { trigramIndexJob } = await import('../../platform/db/trigramJob');
    const { abandonedPaymentsJob } = await import('../../modules/payments');
    const { analyticsRollupJob } = await import('../../modules/analytics');
    const { cartExpiryJob } = await import('../../modules/cart');
    const { sessionExpiryJob } = await import('../../modules/siteUsers');
    const { restockJob } = await import('../../modules/restock');
    const { lowStockJob } = await import('../../modules/catalog');
    const { pendingOrdersJob } = await import('../../modules/orders');
    const { subscriptionBillingJob } = await import('../../modules/subscriptions');
    const { smtpTransport } = await import('../../platform/mail/transport');
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
        lowStockJob(handle.db, { publicUrl: config.publicUrl, port }, app.log),
        pendingOrdersJob(handle.db),
        trigramIndexJob(handle.db),
      ],
      log: app.log,
    });
    if (!worker) io.out(mailLine(config));
  } catch (error) {
    if (!closing) await handle.close().catch(() => {});
    throw error;
  }
}
