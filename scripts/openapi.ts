/**
 * Writes docs/openapi.json (OpenAPI 3.1), the HTTP API as the routes' schemas describe it (src/server/apiDescription.ts).
 * test/integration/openapi.test.ts fails when the committed file is out of date:
 *   npm run openapi
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocumentText } from '../src/server/openApiDocument';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
writeFileSync(target, await openApiDocumentText());
console.log(`wrote ${target}`);
