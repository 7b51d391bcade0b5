/**
 * The video block (spec §3 Video: oembed, overlay): the overlay image with a play button over it. The provider's
 * player is put in only when the visitor plays it (src/client/islands/VideoPlayer.tsx), in a sandboxed frame built
 * from the embed code's src (src/core/videoEmbed.ts); `data-frame-src` tells the page's Content-Security-Policy to
 * allow that one origin as a frame (src/render/contentSecurityPolicy.ts).
 */
import { parseVideoEmbed } from '../core/videoEmbed';
import type { Block } from '../modules/site/schema';
import { Island } from './Island';
import { ResponsiveImage } from './ResponsiveImage';

type VideoBlockData = Extract<Block, { type: 'video' }>;

export function VideoBlock({ block, siteId, index }: { block: VideoBlockData; siteId: string; index: number }) {
  // The site file was checked on import; a stored embed that no longer reads as a player shows nothing.
  const embed = parseVideoEmbed(block.oembed.html);
  if (!embed.ok) return null;
  return (
    <figure className="video-block" data-frame-src={embed.value.origin}>
      {/* The player's own shape (an inline style the page's CSP allows by its hash). */}
      <div
        className="video-block__stage"
        style={{ aspectRatio: String(Math.round(embed.value.aspectRatio * 10_000) / 10_000) }}
      >
        <ResponsiveImage
          siteId={siteId}
          image={block.overlay}
          sizes="(min-width: 1160px) 1160px, 100vw"
          displayWidth={1000}
          className="video-block__overlay"
        />
        <Island
          name="VideoPlayer"
          id={`video-${index}`}
          props={{ src: embed.value.src, title: block.title, url: block.url }}
        />
      </div>
      <figcaption className="video-block__caption">
        {block.title}
        {block.oembed.providerName ? (
          <span className="video-block__provider"> · {block.oembed.providerName}</span>
        ) : null}
      </figcaption>
    </figure>
  );
}
