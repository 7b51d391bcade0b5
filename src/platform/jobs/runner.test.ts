import { afterEach, describe, expect, it, vi } from 'vitest';
import { outboxJob } from '../mail/outboxJob';
import { startJobRunner, type Job, type JobLog, type JobRunner } from './runner';

const logged = () => {
  const lines: string[] = [];
  const log: JobLog = { info: (_d, m) => lines.push(`info ${m}`), error: (_d, m) => lines.push(`error ${m}`) };
  return { log, lines };
};

/** A promise the test resolves by hand. */
const gate = () => {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
};

describe('startJobRunner', () => {
  let runner: JobRunner | undefined;
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    vi.useRealTimers();
  });

  it('runs each job on its own timer, the next run one interval after the last one ended', async () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    const job = (name: string, intervalMs: number): Job => ({
      name,
      intervalMs,
      run: async () => void runs.push(name),
    });
    runner = startJobRunner({ jobs: [job('fast', 100), job('slow', 250)], log: logged().log });
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual(['fast']);
    await vi.advanceTimersByTimeAsync(400);
    expect(runs.filter((r) => r === 'fast')).toHaveLength(5);
    expect(runs.filter((r) => r === 'slow')).toHaveLength(2);
  });

  it('never runs a job twice at once: a run asked for meanwhile comes after the current one', async () => {
    vi.useFakeTimers();
    let active = 0;
    let most = 0;
    let runs = 0;
    const gates = [gate(), gate()];
    runner = startJobRunner({
      jobs: [
        {
          name: 'slow',
          intervalMs: 10,
          run: async () => {
            active += 1;
            most = Math.max(most, active);
            await gates[runs++]?.promise;
            active -= 1;
          },
        },
      ],
      log: logged().log,
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toBe(1);
    // The timer does not start another run while one is in progress, however long it takes.
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    const again = runner.runNow('slow');
    const alsoAgain = runner.runNow('slow');
    expect(runs).toBe(1);
    gates[0]!.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    gates[1]!.open();
    await Promise.all([again, alsoAgain]);
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it('logs a failing run and keeps the job on its schedule', async () => {
    vi.useFakeTimers();
    const { log, lines } = logged();
    let calls = 0;
    runner = startJobRunner({
      jobs: [
        {
          name: 'flaky',
          intervalMs: 50,
          run: async () => {
            calls += 1;
            if (calls === 1) throw new Error('mail server down');
          },
        },
      ],
      log,
    });
    await expect(runner.runNow('flaky')).resolves.toBeUndefined();
    expect(lines).toEqual(['error job flaky failed: mail server down']);
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toBe(2);
    expect(lines).toHaveLength(1);
  });

  it('stop waits for the runs in progress, and nothing runs afterwards', async () => {
    const g = gate();
    let finished = false;
    let runs = 0;
    runner = startJobRunner({
      jobs: [
        {
          name: 'work',
          intervalMs: 5,
          run: async () => {
            runs += 1;
            await g.promise;
            finished = true;
          },
        },
      ],
      log: logged().log,
    });
    void runner.runNow('work');
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    g.open();
    await stopping;
    expect(finished).toBe(true);
    await runner.runNow('work');
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(1);
  });

  it('refuses an unknown job name, a name listed twice and a bad interval', async () => {
    runner = startJobRunner({ jobs: [], log: logged().log });
    await expect(runner.runNow('nope')).rejects.toThrow("there is no job 'nope'");
    const job: Job = { name: 'a', intervalMs: 10, run: async () => {} };
    expect(() => startJobRunner({ jobs: [job, job], log: logged().log })).toThrow("job 'a' is listed twice");
    expect(() => startJobRunner({ jobs: [{ ...job, intervalMs: 0 }], log: logged().log })).toThrow(
      "job 'a' needs an interval above 0 ms",
    );
  });
});

describe('outboxJob', () => {
  it('sends nothing without a transport (the messages stay in the outbox)', async () => {
    // No transport: the run must not even touch the database.
    const db = new Proxy(
      {},
      {
        get: () => {
          throw new Error('database used');
        },
      },
    );
    const job = outboxJob(db as never, undefined);
    expect(job.name).toBe('outbox');
    await expect(job.run()).resolves.toBeUndefined();
  });
});
