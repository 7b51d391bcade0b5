/**
 * A separate server process for the multi-process tests: `tsx test/support/serveApp.ts <database url>` builds the
 * app on that database, listens on a free port of 127.0.0.1 and prints `listening <port>`.
 */
import { connect } from '../../src/platform/db/connect';
import { buildApp } from '../../src/server/app';

const url = process.argv[2];
if (!url) {
  console.error('usage: serveApp.ts <database url>');
  process.exit(2);
}
const handle = connect(url);
const app = await buildApp({ db: handle.db, engine: handle.engine });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening ${new URL(address).port}`);
const stop = async () => {
  await app.close();
  await handle.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
