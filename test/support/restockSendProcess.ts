/**
 * A separate process for the restock concurrency test: `tsx test/support/restockSendProcess.ts <database url> <site>
 * <product> <variant>` connects, prints `ready`, waits for a line on stdin (so that two processes start their sends
 * together), sends the variant's restock e-mails one per transaction, prints the result as JSON and exits.
 */
import { createInterface } from 'node:readline';
import { connect } from '../../src/platform/db/connect';
import { sendRestockNotifications } from '../../src/modules/restock/send';
import { getSite } from '../../src/modules/site/sites';

const [url, siteId, productId, variantId] = process.argv.slice(2);
if (!url || !siteId || !productId || !variantId) {
  console.error('usage: restockSendProcess.ts <database url> <site> <product> <variant>');
  process.exit(2);
}
const handle = connect(url);
const site = await getSite(handle.db, siteId);
if (!site) {
  console.error(`no site ${siteId}`);
  process.exit(2);
}
console.log('ready');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((go) => lines.once('line', () => go()));
const result = await sendRestockNotifications(handle.db, site, { productId, variantId }, { batchSize: 1 });
console.log(JSON.stringify(result.ok ? { sent: result.value.emails } : { error: result.error.message }));
lines.close();
await handle.close();
// Done: leave now, whatever handle (a worker thread, a timer) would keep the process alive.
process.exit(0);
