/**
 * CLI tests run `vitrine ARGS` in this process (runCli with its output collected), against the database at a URL.
 */
import { runCli } from '../../src/cli/run';

export interface CliRun {
  code: number;
  /** stdout lines, without the database line every command that opens the database prints first. */
  out: string[];
  err: string[];
}

/** Runs `vitrine ARGS` in this process, with DATABASE_URL set to `databaseUrl` (restored afterwards). */
export async function vitrine(args: string[], databaseUrl: string): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = databaseUrl;
  try {
    const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.filter((l, i) => !(i === 0 && l.startsWith('Database '))), err };
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
}
