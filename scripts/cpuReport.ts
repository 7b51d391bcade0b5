/**
 * Sums the CPU seconds that a run with VITRINE_TEST_CPU=FILE wrote (test/support/cpuUsage.ts), file by file, the
 * costliest first; with a second FILE, the two side by side (before, after) for the files both hold.
 *   node_modules/.bin/tsx scripts/cpuReport.ts BEFORE.jsonl [AFTER.jsonl]
 */
import { readFileSync } from 'node:fs';

interface Line {
  file: string;
  self: number;
  children: number;
  chromium: number;
  wall: number;
}

/** A file's CPU seconds: its worker's, its child processes', and (with one worker) the shared Chromium's. */
const cpu = (l: Line) => l.self + l.children + l.chromium;

function read(path: string): Map<string, Line> {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  return new Map(lines.map((text) => JSON.parse(text) as Line).map((l) => [l.file, l]));
}

const s = (n: number) => n.toFixed(1).padStart(7);
const [beforePath, afterPath] = process.argv.slice(2);
if (beforePath === undefined) {
  console.error('usage: cpuReport.ts BEFORE.jsonl [AFTER.jsonl]');
  process.exit(2);
}
const before = read(beforePath);
if (afterPath === undefined) {
  const rows = [...before.values()].sort((a, b) => cpu(b) - cpu(a));
  console.log('   self  childr chromium  total  file');
  for (const l of rows) console.log(`${s(l.self)} ${s(l.children)} ${s(l.chromium)} ${s(cpu(l))}  ${l.file}`);
  const sum = (f: (l: Line) => number) => rows.reduce((t, l) => t + f(l), 0);
  console.log(
    `${s(sum((l) => l.self))} ${s(sum((l) => l.children))} ${s(sum((l) => l.chromium))} ${s(sum(cpu))}  ${rows.length} files`,
  );
} else {
  const after = read(afterPath);
  const both = [...before.keys()].filter((file) => after.has(file));
  const rows = both.map((file) => [file, before.get(file)!, after.get(file)!] as const);
  rows.sort((a, b) => cpu(b[1]) - cpu(a[1]));
  // Chromium's share is left out here: it is the file's own only in a run with one worker.
  const own = (l: Line) => l.self + l.children;
  console.log(' before   after  (worker + child processes, CPU s)  file');
  for (const [file, b, a] of rows) console.log(`${s(own(b))} ${s(own(a))}  ${file}`);
  const total = (i: 1 | 2) => rows.reduce((t, r) => t + own(r[i]), 0);
  console.log(`${s(total(1))} ${s(total(2))}  ${rows.length} files in both`);
}
