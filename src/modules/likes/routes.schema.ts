/** What the likes call accepts: the post's id in the path (src/core/likes.ts LIKES_API). */
import { z } from 'zod';

/** A post id of the site file (src/modules/site/schema.ts). */
export const likesParams = z.object({
  postId: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]{0,63}$/,
      'must be a post id: 1-64 lower-case letters, digits or dashes, starting with a letter or digit',
    ),
});
