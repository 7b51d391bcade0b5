/**
 * What a test file costs in CPU seconds, which a busy machine's wall time does not tell: on with VITRINE_TEST_CPU=FILE
 * (a setup file of every project then, vitest.config.ts), which appends one JSON line per test file to FILE:
 *   - `self`: the file's worker process, user + system, from its start (Node, vitest's runtime, the imports, the tests);
 *   - `children`: the processes it started and waited for (a `vitrine` CLI, a `serve`), from /proc/self/stat;
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

/** CPU seconds of every Chromium process alive now, with the children each has waited for. */
function chromiumSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let exe: string;
    try {
      exe = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!;
    } catch {
      continue;
    }
    if (exe !== CHROMIUM && exe !== '/usr/bin/chromium') continue;
    const t = procTimes(pid);
    if (t) total += t[0] + t[1] + t[2] + t[3];
  }
  return total;
}

if (OUT !== undefined) {
  let startedAt = 0;
  let chromiumAtStart = 0;
  beforeAll(() => {
    startedAt = performance.now();
    chromiumAtStart = chromiumSeconds();
  });
  afterAll(() => {
    const self = process.cpuUsage();
    const own = procTimes('self');
    const file = expect.getState().testPath ?? '?';
    const line = {
      file: relative(process.cwd(), file),
      self: round((self.user + self.system) / 1e6),
      children: round(own ? own[2] + own[3] : 0),
      chromium: round(Math.max(0, chromiumSeconds() - chromiumAtStart)),
      wall: round((performance.now() - startedAt) / 1000),
    };
    appendFileSync(OUT, JSON.stringify(line) + '\n');
  });
}

function round(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}
