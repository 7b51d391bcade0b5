/**
 * A blog post's like button and count (src/core/likes.ts). The server renders a plain form (posted without
 * JavaScript, it likes the post and comes back to it) with the count as the page was made; once this island runs it
 * reads the current count and whether this visitor already liked the post, and likes in place, saying so in a
 * polite live region. One like per visitor: a liked post's button stays pressed and disabled.
 *
 * Its code is not in the main bundle: ./lazy.ts loads it when the browser is idle, or at once when the pointer or
 * focus reaches it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { likeCountLabel, LIKES_API, type PostLikes } from '../../core/likes';
import { crumbHeaders } from '../crumb';

export interface LikeButtonProps {
  postId: string;
  /** The count when the page was made. */
  likeCount: number;
}

const LIKE_FAILED = 'Your like could not be saved. Please try again.';

export function LikeButton({ postId, likeCount: initialCount }: LikeButtonProps) {
  const [likeCount, setLikeCount] = useState(initialCount);
  const [liked, setLiked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const url = `${LIKES_API}/${encodeURIComponent(postId)}`;

  useEffect(() => {
    let current = true;
    fetch(url, { credentials: 'same-origin' })
      .then(async (response) => (response.ok ? ((await response.json()) as PostLikes) : undefined))
      .then((likes) => {
        if (!current || !likes) return;
        setLikeCount(likes.likeCount);
        setLiked(likes.liked);
      })
      .catch(() => {
        // The page's count stays; liking still works.
      });
    return () => {
      current = false;
    };
  }, [url]);

  const like = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (liked || busy) return;
    setBusy(true);
    try {
      const response = await fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { ...crumbHeaders(), 'content-type': 'application/json' },
        body: '{}',
      });
      if (!response.ok) throw new Error(String(response.status));
      const likes = (await response.json()) as PostLikes;
      setLikeCount(likes.likeCount);
      setLiked(true);
      setStatus(`You liked this post. ${likeCountLabel(likes.likeCount)}.`);
    } catch {
      setStatus(LIKE_FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="post-likes" method="post" action={url} onSubmit={(event) => void like(event)}>
      <button type="submit" className="post-likes__button" aria-pressed={liked} aria-disabled={liked || busy}>
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M12 21s-7.5-4.6-9.6-9.3C1 8.4 3 5 6.4 5c2 0 3.6 1.1 4.6 2.6C12 6.1 13.6 5 15.6 5 19 5 21 8.4 19.6 11.7 17.5 16.4 12 21 12 21z" />
        </svg>
        {liked ? 'Liked' : 'Like'}
      </button>
      <span className="post-likes__count">{likeCountLabel(likeCount)}</span>
      <span className="visually-hidden" role="status" aria-live="polite">
        {status}
      </span>
    </form>
  );
}
