/**
 * The one job runner of `vitrine serve`: each job runs on its own timer, never twice at once in this process, and a
 * failing run is logged, never thrown. Jobs that must not run twice across processes claim their work with leases
 * in the database (./lease.ts: the outbox and renewals do); the runner only paces them.
 */

export interface Job {
  name: string;
  /** Pause between the end of one run and the start of the next (the first run comes after one interval). */
  intervalMs: number;
  run: () => Promise<void>;
}

/** What the runner logs through; Fastify's (pino) logger fits. */
export interface JobLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface JobRunner {
  /** Stops the timers and waits for the runs in progress. */
  stop(): Promise<void>;
  /** Runs the job now (after the current run, if one is in progress); resolves when that run ends. */
  runNow(name: string): Promise<void>;
}

interface JobState {
  job: Job;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  /** A run asked for while one was in progress: starts when it ends. */
  next: Promise<void> | undefined;
}

export function startJobRunner(options: { jobs: readonly Job[]; log: JobLog }): JobRunner {
  const { log } = options;
  const states = new Map<string, JobState>();
  for (const job of options.jobs) {
    if (states.has(job.name)) throw new Error(`job '${job.name}' is listed twice`);
    if (!(Number.isFinite(job.intervalMs) && job.intervalMs > 0))
      throw new Error(`job '${job.name}' needs an interval above 0 ms`);
    states.set(job.name, { job, timer: undefined, running: undefined, next: undefined });
  }
  let stopped = false;

  const schedule = (state: JobState) => {
    if (stopped) return;
    clearTimeout(state.timer);
    state.timer = setTimeout(() => void start(state), state.job.intervalMs);
    // The jobs never keep a process alive on their own: the server does.
    state.timer.unref();
  };

  const start = (state: JobState): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (state.running) {
      state.next ??= state.running.then(() => {
        state.next = undefined;
        return start(state);
      });
      return state.next;
    }
    clearTimeout(state.timer);
    state.timer = undefined;
    const { name } = state.job;
    state.running = (async () => {
      try {
        await state.job.run();
      } catch (error) {
        log.error(
          { job: name, err: error },
          `job ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    })().finally(() => {
      state.running = undefined;
      schedule(state);
    });
    return state.running;
  };

  for (const state of states.values()) schedule(state);

  return {
    async stop() {
      stopped = true;
      for (const state of states.values()) clearTimeout(state.timer);
      await Promise.all([...states.values()].map((state) => state.running));
    },
    runNow(name) {
      const state = states.get(name);
      if (!state) return Promise.reject(new Error(`there is no job '${name}'`));
      return start(state);
    },
  };
}
