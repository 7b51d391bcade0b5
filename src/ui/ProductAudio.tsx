/**
 * The audio player placeholder of spec §2 for a product with an audio asset (§3 audioAssetUrl; the site file's
 * `audio`): the browser's own player, which needs no script and is keyboard-accessible, loading nothing until
 * played (preload="none"). `data-media-src` lets the page's Content-Security-Policy play media from the file's
 * origin, on this page only (src/render/contentSecurityPolicy.ts).
 */
import type { Product } from '../modules/site/schema';

export function ProductAudio({ product }: { product: Pick<Product, 'audio' | 'name'> }) {
  const audio = product.audio;
  if (!audio) return null;
  const title = audio.title ?? `Listen: ${product.name}`;
  return (
    <figure className="product-audio" data-media-src={new URL(audio.url).origin}>
      <figcaption className="product-audio__title">{title}</figcaption>
      {/* Audio only: its text alternative is the transcript below (WCAG 1.2.1), not a caption track. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      <audio className="product-audio__player" controls preload="none" src={audio.url} aria-label={title}>
        <a href={audio.url}>Download the audio</a>
      </audio>
      {audio.transcript ? (
        <details className="product-audio__transcript">
          <summary>Transcript</summary>
          <p>{audio.transcript}</p>
        </details>
      ) : null}
    </figure>
  );
}
