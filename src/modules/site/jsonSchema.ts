/** The site file's JSON Schema (what a file may contain, defaults optional), generated from the zod schema. */
import { z } from 'zod';
import { siteFileSchema } from './schema';

export function siteFileJsonSchema(): string {
  const schema = z.toJSONSchema(siteFileSchema, { io: 'input', target: 'draft-2020-12' });
  const published = {
    $schema: schema.$schema,
    title: 'Vitrine site file',
    description:
      'One JSON document describing a whole website: settings, collections, products with variants and stock, forms, pages and blog posts. Money is in minor units (cents). See docs/site-file.md.',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
  return `${JSON.stringify(published, null, 2)}\n`;
}
