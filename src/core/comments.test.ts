import { describe, expect, it } from 'vitest';
import { areCommentsShown, commentCountLabel } from './comments';

describe('comments (§4, §8)', () => {
  it.each([
    [{ commentState: 1 }, true],
    [{ commentState: 1, publicCommentCount: 0 }, true],
    [{ commentState: 2, publicCommentCount: 1 }, true],
    [{ commentState: 0, publicCommentCount: 0 }, false],
    [{}, false],
    [{ commentState: 1, commentsEnabled: false }, false],
    [{ publicCommentCount: 3, commentsEnabled: false }, false],
    [{ commentState: 1, commentsEnabled: true }, true],
    [{ commentState: null, publicCommentCount: null, commentsEnabled: null }, false],
    [{ publicCommentCount: Number.NaN }, false],
  ])('areCommentsShown(%j) → %s', (context, expected) => {
    expect(areCommentsShown(context)).toBe(expected);
  });

  it.each([
    [0, 'No Comments'],
    [1, '1 Comment'],
    [2, '2 Comments'],
    [12, '12 Comments'],
    [-1, 'No Comments'],
    [Number.NaN, 'No Comments'],
    ['3', 'No Comments'],
    [2.7, '2 Comments'],
  ])('commentCountLabel(%j) → %s', (count, label) => {
    expect(commentCountLabel(count)).toBe(label);
  });
});
