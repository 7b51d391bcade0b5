/** The demo site's file, which `vitrine serve` imports into an empty database. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEMO_SITE_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'sites', 'demo', 'site.json');
