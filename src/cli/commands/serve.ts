/** `vitrine serve`: the storefront and its jobs, on a database migrated first (the demo site imported into an empty one). */
import { loadSettings, redacted, type Config } from '../../config';
import { defineCommand, UserError, type CliIo, type Command } from '../../platform/cli/command';
import { importSiteFile, listSites } from '../../modules/site';
import { DEMO_SITE_FILE } from '../demo';
import { openDatabase } from '../../platform/cli/database';
import { describeImport, siteFileErrors } from './site';

const serveCommand = defineCommand({
  name: 'serve',
  async run(_args, io) {
    await serve(loadSettings(), io);
    return 0;
  },
});

export const commands: readonly Command[] = [serveCommand];

async function serve(config: Config, io: CliIo): Promise<void> {
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
    if ((await listSites(handle.db)).length === 0) {
      io.out('The database holds no site: importing the demo site…');
      io.out(describeImport(await siteFileErrors(() => importSiteFile(handle.db, DEMO_SITE_FILE))));
    }
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
    const { startJobRunner } = await import('../../platform/jobs/runner');
    const { outboxJob } = await import('../../platform/mail/outboxJob');
    const { abandonedPaymentsJob } = await import('../../modules/payments');
    const { analyticsRollupJob } = await import('../../modules/analytics');
    const { cartExpiryJob } = await import('../../modules/cart');
    const { sessionExpiryJob } = await import('../../modules/siteUsers');
    const { restockJob } = await import('../../modules/restock');
    const { lowStockJob } = await import('../../modules/catalog');
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
