/**
 * docs/openapi.json as the routes describe it: the app built with `describeApi` (on an empty in-memory SQLite
 * database: no route reads it while being added) and its document, sorted (./apiDescription). Written by
 * `npm run openapi` (scripts/openapi.ts); test/integration/openapi.test.ts fails when the committed file differs.
 */
import { connect } from '../platform/db/connect';
import { openApiText } from '../platform/http/apiDescription';
import { buildApp } from './app';

export async function openApiDocumentText(): Promise<string> {
  const handle = connect('sqlite::memory:');
  try {
    const app = await buildApp({ db: handle.db, engine: 'sqlite', describeApi: true });
    try {
      return await openApiText(app);
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
  }
}
