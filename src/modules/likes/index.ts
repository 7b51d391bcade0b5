/**
 * Post likes (spec §7): one per visitor, counted per post.
 * Other modules import this module through this file only (eslint: module boundaries).
 */
export { likeCounts, likesEnabled } from './likes';
