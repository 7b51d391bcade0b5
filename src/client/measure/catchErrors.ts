/**
 * Catches uncaught errors and unhandled rejections from the first moment of the page: each browser entry imports
 * this module first, so an error while the islands hydrate, or before the measurement module has loaded (after the
 * load event, see ./load.ts), is still reported. The error reporter's code (./errors.ts) loads at the first error:
 * most pages never have one, so they never pay for it. Errors until it has loaded are kept and handed over.
 */
type ErrorLike = ErrorEvent | PromiseRejectionEvent;

const early: ErrorLike[] = [];

const keep = (event: ErrorLike) => {
  if (early.push(event) > 1) return;
  void import('./errors').then(
    (m) => {
      removeEventListener('error', keep);
      removeEventListener('unhandledrejection', keep);
      m.startErrorReporter(early);
    },
    () => {},
  );
};

addEventListener('error', keep);
addEventListener('unhandledrejection', keep);
