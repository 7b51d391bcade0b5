/**
 * What a test file costs in CPU seconds, which a busy machine's wall time does not tell: on with VITRINE_TEST_CPU=FILE
 * (a setup file of every project then, vitest.config.ts), which appends one JSON line per test file to FILE:
 *   - `self`: the file's worker process, user + system, from its start (Node, vitest's runtime, the imports, the tests)
 *     or, in a worker that runs several files one after the other (isolate: false), from the previous file's end;
 *   - `children`: the processes it started and waited for (a `vitrine` CLI, a `serve`), from /proc/self/stat, as `self`;
 *   - `chromium`: what the run's shared Chromium (every process of it) spent while the file ran. Files running side by
 *     side share that figure, so it is the file's own only with one worker (VITRINE_TEST_WORKERS=1).
 * Vitest's main process (transforming the sources, the global setups) and the database servers are not counted: time
 * the whole run (`/usr/bin/time -v npx vitest run …`) for those. `tsx scripts/cpuReport.ts FILE` sums the lines.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const OUT = process.env.VITRINE_TEST_CPU;
const TICK = 100; // USER_HZ: clock ticks per second in /proc/*/stat
const CHROMIUM = '/usr/lib/chromium/chromium';

/** utime, stime, cutime, cstime of /proc/PID/stat in seconds; undefined when the process is gone. */
function procTimes(pid: string | number): [number, number, number, number] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3: utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = (n: number) => Number(fields[n - 3]) / TICK;
    return [at(14), at(15), at(16), at(17)];
  } catch {
    return undefined;
  }
}

/** CPU seconds of this run's Chromium (started by vitest's main process, this worker's parent), every process of it. */
function chromiumSeconds(): number {
  const parentOf = new Map<number, number>();
  const times = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const exe = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')[0];
      if (exe !== CHROMIUM && exe !== '/usr/bin/chromium') continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const t = procTimes(name);
      if (t) times.set(Number(name), t[0] + t[1] + t[2] + t[3]);
    } catch {
      // Gone meanwhile.
    }
  }
  const ours = (pid: number): boolean => {
    const parent = parentOf.get(pid);
    return parent === process.ppid || (parent !== undefined && ours(parent));
  };
  let total = 0;
  for (const [pid, seconds] of times) if (ours(pid)) total += seconds;
  return total;
}

/** Where the previous test file of this worker ended: a setup file runs again for every test file, its module too. */
const marks = globalThis as { vitrineCpuMark?: { self: number; children: number } };

if (OUT !== undefined) {
  let startedAt = 0;
  let chromiumAtStart = 0;
  beforeAll(() => {
    startedAt = performance.now();
    chromiumAtStart = chromiumSeconds();
  });
  afterAll(() => {
    const usage = process.cpuUsage();
    const own = procTimes('self');
    const now = { self: (usage.user + usage.system) / 1e6, children: own ? own[2] + own[3] : 0 };
    const before = marks.vitrineCpuMark ?? { self: 0, children: 0 };
    marks.vitrineCpuMark = now;
    const file = expect.getState().testPath ?? '?';
    const line = {
      file: relative(process.cwd(), file),
      self: round(now.self - before.self),
      children: round(now.children - before.children),
      chromium: round(Math.max(0, chromiumSeconds() - chromiumAtStart)),
      wall: round((performance.now() - startedAt) / 1000),
    };
    appendFileSync(OUT, JSON.stringify(line) + '\n');
  });
}

function round(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}
