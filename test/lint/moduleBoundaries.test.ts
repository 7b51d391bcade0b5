/**
 * The house's import rules (eslint/moduleBoundaries.js), each shown to refuse what it must and to let through what it
 * may: `npm test` runs ESLint over src/, so a rule that let everything through would pass unnoticed.
 */
import { resolve } from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import plugin from '../../eslint/moduleBoundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const at = (file: string) => resolve(import.meta.dirname, '../..', file);
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'module' } });

tester.run('module-boundaries', plugin.rules['module-boundaries'], {
  valid: [
    { filename: at('src/modules/orders/cli.ts'), code: "import { siteFor } from '../site';" },
    { filename: at('src/modules/orders/cli.ts'), code: "import { withDatabase } from '../../platform/cli/database';" },
    { filename: at('src/modules/orders/refunds.ts'), code: "import { x } from './orderTypes';" },
    { filename: at('src/cli/run.ts'), code: "const m = import('../modules/orders/cli');" },
    { filename: at('src/core/money.ts'), code: "import { x } from './currency';" },
  ],
  invalid: [
    {
      filename: at('src/modules/orders/cli.ts'),
      code: "import { x } from '../site/sites';",
      errors: [{ message: /module 'orders' reaches into module 'site' \(sites\)/ }],
    },
    {
      filename: at('src/modules/orders/cli.ts'),
      code: "import { runCli } from '../../cli/run';",
      errors: [{ message: /module 'orders' imports the composition \(src\/cli\/run\)/ }],
    },
    {
      filename: at('src/modules/orders/routes.ts'),
      code: "import { buildApp } from '../../server/app';",
      errors: [{ message: /imports the composition \(src\/server\/app\)/ }],
    },
    {
      filename: at('src/platform/cli/database.ts'),
      code: "import { x } from '../../modules/search';",
      errors: [{ message: /the platform imports no module/ }],
    },
    {
      filename: at('src/core/money.ts'),
      code: "import { x } from '../platform/redactedUrl';",
      errors: [{ message: /the core imports only the core/ }],
    },
    {
      filename: at('src/platform/db/migrations/010_search.ts'),
      code: "import { x } from '../../../modules/search';",
      errors: [{ message: /a migration imports no module code/ }],
    },
  ],
});
