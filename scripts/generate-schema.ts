/**
 * Writes docs/site.schema.json, the published JSON Schema of the site file, from the zod schema
 * (src/modules/site/schema.ts). test/integration/site-schema.test.ts fails when the committed file is out of date:
 *   node_modules/.bin/tsx scripts/generate-schema.ts
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { siteFileJsonSchema } from '../src/modules/site/jsonSchema';

const target = fileURLToPath(new URL('../docs/site.schema.json', import.meta.url));
writeFileSync(target, siteFileJsonSchema());
console.log(`wrote ${target}`);
