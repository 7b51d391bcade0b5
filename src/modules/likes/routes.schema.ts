/** What the likes call accepts: the post's id in the path (src/core/likes.ts LIKES_API). */
import { z } from 'zod';
import { component, describeRoute, errorAnswer, jsonAnswer, redirectAnswer } from '../../platform/http/apiDescription';

/** A post id of the site file (src/modules/site/schema.ts). */
export const likesParams = z.object({
  postId: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]{0,63}$/,
      'must be a post id: 1-64 lower-case letters, digits or dashes, starting with a letter or digit',
    ),
});

const likesAnswer = component(
  'PostLikes',
  z.object({ postId: z.string(), likeCount: z.number().int(), liked: z.boolean().describe('By the visitor asking.') }),
  "A blog post's likes.",
);
const likesRefusals = {
  400: errorAnswer('invalid-input: not a post id.'),
  403: errorAnswer(
    'likes-not-enabled: the site has not turned likes on; crumb-invalid / cross-site-refused (POST: another website).',
  ),
  404: errorAnswer("post-not-found: 'This site has no blog post with that id.'"),
};

export const getLikesRoute = describeRoute({
  operationId: 'getPostLikes',
  summary: 'A blog post’s likes, and whether this visitor liked it',
  tags: ['content'],
  params: likesParams,
  response: { 200: jsonAnswer('The likes now.', likesAnswer), ...likesRefusals },
});

export const likeRoute = describeRoute({
  operationId: 'likePost',
  summary: 'Like a blog post (once per visitor)',
  description:
    'Gives a visitor without a `vitrine_liker` cookie one. JSON callers get the likes; the post page’s form posted without JavaScript (form-encoded, no fields) gets 303 to the post’s likes.',
  tags: ['content'],
  params: likesParams,
  body: {
    content: {
      'application/json': { schema: z.object({}) },
      'application/x-www-form-urlencoded': { schema: z.object({}) },
    },
  },
  response: {
    200: jsonAnswer('Liked (JSON callers).', likesAnswer),
    303: redirectAnswer('Liked (the form): to /{blog}/{post slug}#likes.'),
    ...likesRefusals,
  },
});
