import { describe, expect, it } from 'vitest';
import {
  ERROR_REPORT_MAX_QUEUED,
  ERROR_REPORT_MAX_SENDS,
  ERROR_REPORT_MAX_STACK_LENGTH,
  enqueueError,
  initialErrorReporterState,
  takeErrorBatch,
  truncateStack,
  type ErrorReporterState,
} from './errorReporter';
import { ERROR_REPORT_DEBOUNCE_MS } from './timing';

describe('error reporter (§9)', () => {
  it('has the spec limits', () => {
    expect([
      ERROR_REPORT_MAX_SENDS,
      ERROR_REPORT_MAX_QUEUED,
      ERROR_REPORT_MAX_STACK_LENGTH,
      ERROR_REPORT_DEBOUNCE_MS,
    ]).toEqual([20, 10, 5000, 1000]);
  });

  it('queues an event, truncates its stack and asks for a 1 s debounce', () => {
    const { state, sendAfterMs } = enqueueError(initialErrorReporterState, {
      message: 'boom',
      stack: 's'.repeat(6000),
      line: 3,
    });
    expect(sendAfterMs).toBe(1000);
    expect(state.queue).toHaveLength(1);
    expect(state.queue[0]!.stack).toHaveLength(5000);
    expect(state.queue[0]!.line).toBe(3);
    expect(enqueueError(initialErrorReporterState, { message: 'no stack' }).state.queue[0]).toEqual({
      message: 'no stack',
    });
    expect(truncateStack('abc')).toBe('abc');
  });

  it('keeps at most 10 queued events, dropping newer ones', () => {
    let state: ErrorReporterState = initialErrorReporterState;
    for (let i = 0; i < 12; i++) state = enqueueError(state, { message: `e${i}` }).state;
    expect(state.queue.map((e) => e.message)).toEqual(Array.from({ length: 10 }, (_, i) => `e${i}`));
    expect(state.dropped).toBe(2);
    expect(enqueueError(state, { message: 'x' }).sendAfterMs).toBeNull();
  });

  it('hands the queue out as one batch per send', () => {
    const queued = enqueueError(enqueueError(initialErrorReporterState, { message: 'a' }).state, {
      message: 'b',
    }).state;
    const { state, batch } = takeErrorBatch(queued);
    expect(batch?.map((e) => e.message)).toEqual(['a', 'b']);
    expect(state).toEqual({ queue: [], sends: 1, dropped: 0 });
    expect(takeErrorBatch(state)).toEqual({ state, batch: null });
  });

  it('stops after 20 sends', () => {
    let state: ErrorReporterState = initialErrorReporterState;
    for (let i = 0; i < ERROR_REPORT_MAX_SENDS; i++) {
      state = enqueueError(state, { message: `e${i}` }).state;
      const taken = takeErrorBatch(state);
      expect(taken.batch).not.toBeNull();
      state = taken.state;
    }
    const refused = enqueueError(state, { message: 'late' });
    expect(refused.sendAfterMs).toBeNull();
    expect(refused.state.queue).toHaveLength(0);
    expect(takeErrorBatch({ ...state, queue: [{ message: 'forced' }] }).batch).toBeNull();
  });
});
