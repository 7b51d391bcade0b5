/**
 * CLI tests run `vitrine ARGS` in this process (runCli with its output collected), against the database at a URL:
 * a `vitrine` process costs seconds of CPU to start (tsx loading the app), the same command in this process a few
 * milliseconds. The tests of what only a process shows (its exit code, stdout apart from stderr, `serve` and its
 * signals) start real ones: `vitrineProcess`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run';

const ROOT = join(import.meta.dirname, '../..');
// The package's `vitrine` command (bin/vitrine.js: tsx registered in the one process). Not the tsx CLI, whose wrapper
// process relays a SIGTERM and, when the busy child does not acknowledge it within 30 ms, kills it: exit code 143.
const VITRINE = [join(ROOT, 'bin/vitrine.js')];

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

/** What a `vitrine` run printed, as a process prints it: every line ends with a newline. */
export interface CliOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Kept in the environment of an in-process run besides the given settings: the test runner's own, and PATH. */
const kept = (name: string) => name === 'PATH' || name.startsWith('VITEST');

let running: Promise<unknown> = Promise.resolve();

/**
 * Runs `vitrine ARGS` in this process as `vitrineProcess` would run it: with only the given settings in the
 * environment (every other variable is removed for the run, then restored), its stdout and stderr apart. Runs started
 * together take turns, each in its own environment.
 */
export function vitrineWith(args: string[], env: Record<string, string>): Promise<CliOutput> {
  const run = running.then(async () => {
    const saved = { ...process.env };
    for (const name of Object.keys(process.env)) if (!kept(name)) delete process.env[name];
    Object.assign(process.env, env);
    let stdout = '';
    let stderr = '';
    try {
      const code = await runCli(args, { out: (l) => (stdout += `${l}\n`), err: (l) => (stderr += `${l}\n`) });
      return { code, stdout, stderr };
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
  running = run.catch(() => {});
  return run;
}

/** Runs `vitrine ARGS` as a process of its own (bin/vitrine.js, the installed command), with only the given settings. */
export function vitrineProcess(args: string[], env: Record<string, string>): Promise<CliOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...VITRINE, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts `vitrine serve` (a process of its own, on PORT 0 of 127.0.0.1) with only the given settings, and waits until
 * its output matches `ready`. `stop` ends it with SIGTERM and gives its exit code.
 */
export function serveProcess(
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ match: RegExpExecArray; output: () => string; stop: () => Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...VITRINE, 'serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    });
    let output = '';
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 60_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ match, output: () => output, stop: () => (child.kill('SIGTERM'), exited) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
}
