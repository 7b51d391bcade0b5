/** Entry point of the `vitrine` command (run by bin/vitrine.js, or `tsx src/cli/main.ts`). */
import { runCli } from './run';

const code = await runCli(process.argv.slice(2));
// `serve` keeps running on its open server; every other command ends here.
if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
