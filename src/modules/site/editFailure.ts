/** How the editors' JSON calls and forms answer a refused site edit (pages, posts, collections): its error, its status. */
import { ApiError } from '../../platform/http/errors';
import type { PageEditFailure } from './pageEdits';

/** The API error of a refused save. */
export function apiFailure(failure: PageEditFailure): ApiError {
  switch (failure.type) {
    case 'FORBIDDEN':
      return new ApiError('role-not-allowed', failure.message, { field: 'status' });
    case 'NOT_FOUND':
      return new ApiError('version-not-found', failure.message);
    case 'STALE':
      return new ApiError(
        'site-edit-stale',
        failure.changes.length ? `${failure.message} What changed: ${failure.changes.join('; ')}.` : failure.message,
      );
    case 'INVALID':
      return new ApiError('invalid-input', failure.message);
    default:
      return new ApiError('site-edit-refused', failure.message);
  }
}

/** The HTTP status of a refused save (a form shown again with why). */
export const failureStatus = (failure: PageEditFailure): number =>
  failure.type === 'NOT_FOUND' ? 404 : failure.type === 'INVALID' ? 400 : failure.type === 'FORBIDDEN' ? 403 : 409;
