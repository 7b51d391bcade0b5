/**
 * Browser error reporter limits of spec §9 as a pure state machine. The client keeps the state,
 * (re)starts a debounce timer of `ERROR_REPORT_DEBOUNCE_MS` when `enqueueError` asks for it, and
 * on the timer calls `takeErrorBatch` and posts the batch to /api/events/RecordJavascriptErrors.
 */
import { ERROR_REPORT_DEBOUNCE_MS } from './timing';

export const ERROR_REPORT_MAX_SENDS = 20;
export const ERROR_REPORT_MAX_QUEUED = 10;
export const ERROR_REPORT_MAX_STACK_LENGTH = 5000;

export interface ErrorReport {
  message: string;
  stack?: string;
  [detail: string]: unknown;
}

export interface ErrorReporterState {
  readonly queue: readonly ErrorReport[];
  /** Batches handed out for sending so far. */
  readonly sends: number;
  /** Events refused because the queue was full or the send budget was spent. */
  readonly dropped: number;
}

export const initialErrorReporterState: ErrorReporterState = { queue: [], sends: 0, dropped: 0 };

/** Keeps the first 5000 characters of a stack: the top frames are where the error is. */
export const truncateStack = (stack: string): string => stack.slice(0, ERROR_REPORT_MAX_STACK_LENGTH);

/**
 * Adds an event. When the queue is full the new event is dropped, not the oldest: the first
 * errors of a page are usually the cause, later ones the consequences. Once 20 batches have
 * been sent nothing more is queued, so a page stuck in an error loop cannot flood the server.
 */
export const enqueueError = (
  state: ErrorReporterState,
  event: ErrorReport,
): { state: ErrorReporterState; sendAfterMs: number | null } => {
  if (state.sends >= ERROR_REPORT_MAX_SENDS || state.queue.length >= ERROR_REPORT_MAX_QUEUED) {
    return { state: { ...state, dropped: state.dropped + 1 }, sendAfterMs: null };
  }
  const kept: ErrorReport = typeof event.stack === 'string' ? { ...event, stack: truncateStack(event.stack) } : event;
  return { state: { ...state, queue: [...state.queue, kept] }, sendAfterMs: ERROR_REPORT_DEBOUNCE_MS };
};

/** Takes the whole queue as one batch (one send), or null when there is nothing to send or no send left. */
export const takeErrorBatch = (
  state: ErrorReporterState,
): { state: ErrorReporterState; batch: ErrorReport[] | null } => {
  if (state.queue.length === 0 || state.sends >= ERROR_REPORT_MAX_SENDS) return { state, batch: null };
  return { state: { ...state, queue: [], sends: state.sends + 1 }, batch: [...state.queue] };
};
