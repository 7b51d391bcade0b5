/**
 * Ids of rows that are listed newest first with the time and then the id (the audit log, a variant's stock history):
 * they sort as they were made. The milliseconds since 1970 and a counter of this process (which orders the ids made in
 * one millisecond), both in fixed-width base 36, then random characters (ids of two processes never collide).
 */
import { randomToken } from './randomToken';

let lastMs = 0;
let counter = 0;

export function timeOrderedId(now: number = Date.now()): string {
  if (now === lastMs) counter++;
  else {
    lastMs = now;
    counter = 0;
  }
  return `${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(4, '0')}${randomToken(6)}`;
}
