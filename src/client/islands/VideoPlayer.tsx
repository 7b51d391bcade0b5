/**
 * A video block's play button (src/ui/VideoBlock.tsx). The server renders a link to the video's page over the overlay
 * image (without JavaScript the visitor watches it there); once this island has loaded, the link plays the video here
 * instead: the player frame replaces the overlay and takes focus, so a keyboard user is where the video is (its own
 * controls are next in the tab order). Nothing from the provider loads before the visitor asks for it.
 *
 * Its code is not in the main bundle: ./lazy.ts loads it when the browser is idle, or at once when the pointer or
 * focus reaches the block.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { autoplayUrl, VIDEO_ALLOW, VIDEO_SANDBOX } from '../../core/videoEmbed';

export interface VideoPlayerProps {
  /** The player's address from the oEmbed HTML (https; the page's CSP allows its origin as a frame). */
  src: string;
  /** What the video is (the button's and the frame's names). */
  title: string;
  /** The video's page at the provider. */
  url: string;
}

export function VideoPlayer({ src, title, url }: VideoPlayerProps) {
  const [playing, setPlaying] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    if (!playing) return;
    frame.current?.focus();
    // The overlay image is the server's, outside this island: hide it under the player.
    frame.current?.closest('.video-block')?.classList.add('video-block--playing');
  }, [playing]);

  const play = (event: MouseEvent | KeyboardEvent) => {
    // A new tab or window (modifier keys, middle click) still goes to the provider's page.
    if ('button' in event && (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey))
      return;
    event.preventDefault();
    setPlaying(true);
  };

  if (playing) {
    return (
      <iframe
        ref={frame}
        className="video-block__frame"
        src={autoplayUrl(src)}
        title={`Video: ${title}`}
        sandbox={VIDEO_SANDBOX}
        allow={VIDEO_ALLOW}
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
        tabIndex={-1}
      />
    );
  }
  return (
    <a
      className="video-block__play"
      href={url}
      onClick={play}
      // The link acts as the play button once this code runs: Space plays it too, as it would a button.
      onKeyDown={(event) => event.key === ' ' && play(event)}
    >
      <svg
        className="video-block__icon"
        viewBox="0 0 68 48"
        width="68"
        height="48"
        aria-hidden="true"
        focusable="false"
      >
        <rect width="68" height="48" rx="12" />
        <path d="M27 14v20l18-10z" />
      </svg>
      <span className="visually-hidden">Play video: {title}</span>
    </a>
  );
}
