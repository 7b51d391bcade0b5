/** Comment link rules of spec §4 and §8. */

export const COMMENT_STATE_ENABLED = 1;

export interface CommentsContext {
  commentState?: number | null;
  publicCommentCount?: number | null;
  /** Site-wide setting; only an explicit false turns comments off (an unset setting changes nothing). */
  commentsEnabled?: boolean | null;
}

const commentCount = (count: unknown): number =>
  typeof count === 'number' && Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;

/** Comments show when the item has them enabled or already has a public comment, unless the site turns them off. */
export const areCommentsShown = (context: CommentsContext): boolean => {
  if (context.commentsEnabled === false) return false;
  return context.commentState === COMMENT_STATE_ENABLED || commentCount(context.publicCommentCount) >= 1;
};

/** 'No Comments', '1 Comment', 'N Comments'. Bad counts read as none. */
export const commentCountLabel = (count: unknown): string => {
  const n = commentCount(count);
  if (n === 0) return 'No Comments';
  if (n === 1) return '1 Comment';
  return `${n} Comments`;
};
