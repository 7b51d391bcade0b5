/**
 * The error reporter (§7, §8, §9): uncaught errors and unhandled rejections, queued by the limits of
 * src/core/errorReporter.ts (at most 10 queued, 20 sends per page, stacks cut at 5000 characters) and sent as one
 * batch 1 s after the latest error to POST /api/events/RecordJavascriptErrors with the crumb header.
 */
import { ANALYTICS_PATHS } from '../../core/analytics';
import { enqueueError, initialErrorReporterState, takeErrorBatch, type ErrorReport } from '../../core/errorReporter';
import { crumbHeaders } from '../crumb';

type ErrorLike = ErrorEvent | PromiseRejectionEvent;

/** What the reporter sends of an uncaught error or an unhandled rejection. */
function reportOf(event: ErrorLike): ErrorReport {
  const rejected = event.type === 'unhandledrejection';
  const error = (rejected ? (event as PromiseRejectionEvent).reason : (event as ErrorEvent).error) as unknown;
  const message = rejected
    ? `Unhandled rejection: ${error instanceof Error ? error.message : String(error)}`
    : (event as ErrorEvent).message || (error instanceof Error ? error.message : 'Script error');
  return {
    message: message.slice(0, 1000),
    ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    url: location.href,
  };
}

/** Starts reporting with the events caught before this module loaded (./index.ts loads it at the first error). */
export function startErrorReporter(early: ErrorLike[]): void {
  let state = initialErrorReporterState;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const send = () => {
    const taken = takeErrorBatch(state);
    state = taken.state;
    if (!taken.batch) return;
    void fetch(ANALYTICS_PATHS.javascriptErrors, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...crumbHeaders() },
      body: JSON.stringify(taken.batch),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => {});
  };

  const add = (event: ErrorLike) => {
    const result = enqueueError(state, reportOf(event));
    state = result.state;
    if (result.sendAfterMs === null) return;
    clearTimeout(timer);
    timer = setTimeout(send, result.sendAfterMs);
  };

  early.forEach(add);
  addEventListener('error', add);
  addEventListener('unhandledrejection', add);
}
