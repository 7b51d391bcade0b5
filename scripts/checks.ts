/**
 * What npm test runs before the test suite, side by side rather than one after the other: Prettier, the type check,
 * ESLint, the browser bundle's build and the pure core's own tests with their coverage gate (vitest.core.config.ts).
 * They share no files they write (the build writes dist/, the gate coverage/, which the others skip), and each is
 * one process that keeps one core busy: ESLint, the longest, on one core, the others one after the other on the
 * second. Each one's output is printed when it ends, with its time; the exit code is 1 when any failed.
 *   node_modules/.bin/tsx scripts/checks.ts
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const bin = (name: string) => join(import.meta.dirname, '../node_modules/.bin', name);

const checks: { name: string; command: string; args: string[] }[] = [
  // ESLint first: the longest (it type-checks again, for its type-aware rules).
  { name: 'eslint .', command: bin('eslint'), args: ['.'] },
  { name: 'tsc --noEmit', command: bin('tsc'), args: ['--noEmit'] },
  { name: 'prettier --check .', command: bin('prettier'), args: ['--check', '.'] },
  { name: 'vite build', command: bin('vite'), args: ['build'] },
  // The core's tests run here (its gate), so the Vitest run after the checks leaves out its 'core' project.
  {
    name: 'core gate: vitest run --config vitest.core.config.ts --coverage',
    command: bin('vitest'),
    args: ['run', '--config', 'vitest.core.config.ts', '--coverage'],
  },
];

function run(check: (typeof checks)[number]): Promise<boolean> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(check.command, check.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const end = (ok: boolean, why: string) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n== ${check.name}: ${why} (${seconds} s)\n${Buffer.concat(output).toString()}`);
      done(ok);
    };
    child.on('error', (error) => end(false, `could not start: ${error.message}`));
    child.on('close', (code, signal) => end(code === 0, code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`));
  });
}

const results = await Promise.all(checks.map(run));
const failed = checks.filter((_, i) => !results[i]).map((c) => c.name);
if (failed.length > 0) {
  process.stdout.write(`\nFailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
