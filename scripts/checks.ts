/**
 * What npm test runs besides the test suite: Prettier, the type check, ESLint, the browser bundle's build and the pure
 * core's own tests with their coverage gate (vitest.core.config.ts), side by side rather than one after the other.
 * They share no files they write (the build writes dist/, the gate coverage/, which the others skip), and each is
 * one process that keeps one core busy. Each one's output is printed with its time; the exit code is 1 when any failed.
 *   node_modules/.bin/tsx scripts/checks.ts
 *
 * With a command after `--` (npm test: the Vitest run), that command runs at the same time as the checks, its output
 * passed through as it comes, and the exit code is 1 when it or any check failed. The build goes first, alone (a few
 * seconds): the browser tests load its bundle. The other checks then run at a lower CPU priority (nice 10): on a
 * 2-core machine the test run leaves a third of the CPU idle (its files wait on Chromium, PostgreSQL, timers), and
 * the checks fill it instead of taking turns with the tests, which would only make the test run longer. A check's
 * failure is said in one line when it ends; the outputs of the checks follow the command's.
 *   node_modules/.bin/tsx scripts/checks.ts -- node_modules/.bin/vitest run --project server --project app
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';

const bin = (name: string) => join(import.meta.dirname, '../node_modules/.bin', name);

interface Check {
  name: string;
  command: string;
  args: string[];
}

const build: Check = { name: 'vite build', command: bin('vite'), args: ['build'] };
const checks: Check[] = [
  // ESLint first: the longest (it type-checks again, for its type-aware rules).
  { name: 'eslint .', command: bin('eslint'), args: ['.'] },
  { name: 'tsc --noEmit', command: bin('tsc'), args: ['--noEmit'] },
  { name: 'prettier --check .', command: bin('prettier'), args: ['--check', '.'] },
  // The core's tests run here (its gate), so the Vitest run of npm test leaves out its 'core' project.
  {
    name: 'core gate: vitest run --config vitest.core.config.ts --coverage',
    command: bin('vitest'),
    args: ['run', '--config', 'vitest.core.config.ts', '--coverage'],
  },
];

const separator = process.argv.indexOf('--');
const [testCommand, ...testArgs] = separator === -1 ? [] : process.argv.slice(separator + 1);

interface Result {
  check: Check;
  ok: boolean;
  /** '== name: ok (12.3 s)' and what it printed. */
  report: string;
}

/** The checks running under nice, to be given the normal priority back once the tests have ended. */
const niced = new Set<ChildProcess>();

/** Runs `check`, its output kept; `lowPriority`: under `nice -n 10` (where there is a nice: not on Windows). */
function run(check: Check, options: { lowPriority?: boolean } = {}): Promise<Result> {
  const started = performance.now();
  const low = options.lowPriority === true && process.platform !== 'win32';
  return new Promise((done) => {
    const child = low
      ? spawn('nice', ['-n', '10', check.command, ...check.args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(check.command, check.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    if (low) niced.add(child);
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const end = (ok: boolean, why: string) => {
      niced.delete(child);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      done({ check, ok, report: `\n== ${check.name}: ${why} (${seconds} s)\n${Buffer.concat(output).toString()}` });
    };
    child.on('error', (error) => end(false, `could not start: ${error.message}`));
    child.on('close', (code, signal) => end(code === 0, code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`));
  });
}

/** Runs the test command with the terminal's output; whether it passed. */
function runTests(command: string, args: string[]): Promise<boolean> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', (error) => {
      process.stdout.write(`\n${command} could not start: ${error.message}\n`);
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

let results: Result[];
let testsOk = true;
if (testCommand === undefined) {
  results = await Promise.all([build, ...checks].map((c) => run(c)));
  for (const r of results) process.stdout.write(r.report);
} else {
  const built = await run(build);
  process.stdout.write(built.report);
  if (!built.ok) {
    process.stdout.write(`\nFailed: ${build.name} (the tests were not run)\n`);
    process.exit(1);
  }
  const checked = Promise.all(
    checks.map((c) =>
      run(c, { lowPriority: true }).then((r) => {
        if (!r.ok) process.stdout.write(`\n== ${c.name}: failed (its output follows the tests')\n`);
        return r;
      }),
    ),
  );
  testsOk = await runTests(testCommand, testArgs);
  // What is left of the checks no longer gives way to the tests: back to the normal priority (on a machine busy with
  // other work, niced checks would wait behind it). Not allowed everywhere (raising a priority may need privileges).
  for (const child of niced) {
    try {
      if (child.pid !== undefined) setPriority(child.pid, 0);
    } catch {
      // They end at the low priority.
    }
  }
  results = [built, ...(await checked)];
  for (const r of results.slice(1)) process.stdout.write(r.report);
}

const failed = results.filter((r) => !r.ok).map((r) => r.check.name);
if (!testsOk) failed.push(testArgs.length > 0 ? `${testCommand} ${testArgs.join(' ')}` : testCommand!);
if (failed.length > 0) {
  process.stdout.write(`\nFailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
