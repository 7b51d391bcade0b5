/** Turns a zod failure into the one ApiError: 400, a message that names the field, and the field's path. */
import type { z } from 'zod';
import { ApiError } from './errors';

/** Parses `value` with `schema`, or throws an 'invalid-input' ApiError about the first problem. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'params',
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '';
  const problem = issue?.message ?? 'is invalid';
  const message = field === '' ? `The request ${where} ${problem}.` : `${field} ${problem}.`;
  throw new ApiError('invalid-input', message, field === '' ? {} : { field });
}
