/**
 * A gallery block (§3 gallery options, §9 gallery defaults) in its four designs: grid, stacked, slideshow and slider
 * (§9's carousel). The server renders it whole (src/ui/Gallery.tsx), so it reads without JavaScript: a grid or stack of
 * images, a slider's row that scrolls, a slideshow's first slide with its thumbnails or numbered links; every image
 * link opens the largest rendition of its image.
 *
 * Its code is a lazy island (./lazy.ts), loaded only on pages with a slideshow, a slider or a lightbox. Once it runs:
 * previous / next buttons and ArrowLeft / ArrowRight move the slides (wrapping); autoplay advances every
 * `autoplayDelay` seconds, stops while the pointer or focus is on the gallery or the lightbox is open, never starts
 * when the visitor prefers reduced motion, and has a Pause / Play button; an image link opens the lightbox
 * (./GalleryLightbox.tsx) instead of the image file.
 */
import {
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import {
  GALLERY_LABELS,
  galleryPosition,
  stepSlide,
  type GalleryActiveAlignment,
  type GalleryDesign,
  type GalleryFlag,
  type GalleryLightboxTheme,
  type GalleryMetaPosition,
} from '../../core/gallery';
import type { ImageSources } from '../../ui/ResponsiveImage';
import { GalleryLightbox } from './GalleryLightbox';

/** One image as the island draws it: its sources (computed by the server), a thumbnail and its optional caption. */
export interface GalleryImageView extends ImageSources {
  /** A small rendition for the slideshow's thumbnail strip. */
  thumb: string;
  title?: string;
  description?: string;
}

export interface GalleryProps {
  design: GalleryDesign;
  label: string;
  images: GalleryImageView[];
  flags: GalleryFlag[];
  /** The images' `sizes` attribute for this design. */
  sizes: string;
  /** The gallery's first image is the page's first large one: loaded at once, with high fetch priority. */
  priority: boolean;
  lightboxTheme: GalleryLightboxTheme;
  metaPosition: GalleryMetaPosition;
  activeAlignment: GalleryActiveAlignment;
  autoplayDelayMs: number;
  /** The §9 numbers and the aspect ratio as CSS custom properties (src/ui/styles.css, "Gallery blocks"). */
  style: Record<`--${string}`, string>;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const prefersReducedMotion = () => typeof matchMedia === 'function' && matchMedia(REDUCED_MOTION).matches;
const onReducedMotionChange = (change: () => void) => {
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia(REDUCED_MOTION);
  query.addEventListener('change', change);
  return () => query.removeEventListener('change', change);
};
const noSubscription = () => () => undefined;

function Arrow({ back }: { back: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path
        d={back ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** One image: a link to its largest rendition (the lightbox with JavaScript) when `open` is given, and its caption. */
function GalleryFigure({
  image,
  index,
  count,
  props,
  eager,
  open,
}: {
  image: GalleryImageView;
  index: number;
  count: number;
  props: GalleryProps;
  eager: boolean;
  open?: (index: number, event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const img = (
    <img
      className="gallery__image"
      src={image.src}
      srcSet={image.srcSet}
      sizes={props.sizes}
      width={image.width}
      height={image.height}
      alt={image.alt}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={eager ? 'high' : undefined}
      style={{ objectPosition: image.position }}
    />
  );
  const meta =
    (props.flags.includes('show-meta') || props.flags.includes('show-meta-on-hover')) &&
    (image.title || image.description);
  return (
    <figure className="gallery__item">
      {open ? (
        // An image without alt text still needs a name for its link.
        <a
          className="gallery__link"
          href={image.largest}
          onClick={(e) => open(index, e)}
          aria-label={image.alt ? undefined : `${props.label} ${galleryPosition(index, count)}`}
        >
          {img}
        </a>
      ) : (
        img
      )}
      {meta ? (
        <figcaption className={`gallery__meta gallery__meta--${props.metaPosition}`}>
          {image.title ? <span className="gallery__meta-title">{image.title}</span> : null}
          {image.description ? <span className="gallery__meta-description">{image.description}</span> : null}
        </figcaption>
      ) : null}
    </figure>
  );
}

export function Gallery(props: GalleryProps) {
  const { design, images, flags, label } = props;
  const has = (flag: GalleryFlag) => flags.includes(flag);
  const count = images.length;
  // False on the server and while hydrating, true once the island runs: the controls that need JavaScript show then.
  const mounted = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const reducedMotion = useSyncExternalStore(onReducedMotionChange, prefersReducedMotion, () => false);
  const [index, setIndex] = useState(0);
  const [lightbox, setLightbox] = useState<number | null>(null);
  /** The visitor's Pause / Play; until they choose, paused when they prefer reduced motion (no autoplay then). */
  const [pausedByVisitor, setPausedByVisitor] = useState<boolean | null>(null);
  const paused = pausedByVisitor ?? reducedMotion;
  /** The pointer or focus is on the gallery. */
  const [held, setHeld] = useState(false);
  const track = useRef<HTMLDivElement>(null);
  const carousel = design === 'slideshow' || design === 'slider';
  const autoplay = carousel && has('autoplay') && count > 1;
  const playing = mounted && autoplay && !paused;

  // Autoplay: the next slide after the delay; any change of slide (or a hold) starts the wait again.
  useEffect(() => {
    if (!playing || held || lightbox !== null) return;
    const timer = setTimeout(() => setIndex((i) => stepSlide(i, count, 1)), props.autoplayDelayMs);
    return () => clearTimeout(timer);
  }, [playing, held, lightbox, index, count, props.autoplayDelayMs]);

  // The slider scrolls its current slide into place (left, centre or right of its row: §3 active alignment).
  useEffect(() => {
    const row = track.current;
    const slide = row?.children[index] as HTMLElement | undefined;
    if (!mounted || design !== 'slider' || !row || !slide) return;
    const room = row.clientWidth - slide.offsetWidth;
    const offset = props.activeAlignment === 'left' ? 0 : props.activeAlignment === 'right' ? room : room / 2;
    row.scrollTo({ left: slide.offsetLeft - offset, behavior: reducedMotion ? 'auto' : 'smooth' });
  }, [mounted, design, index, props.activeAlignment, reducedMotion]);

  const open = has('lightbox')
    ? (at: number, event: MouseEvent<HTMLAnchorElement>) => {
        // A modified click (new tab, download) still follows the link.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        setLightbox(at);
      }
    : undefined;
  const go = (at: number) => setIndex(((at % count) + count) % count);
  const figure = (at: number, key?: number) => (
    <GalleryFigure
      key={key}
      image={images[at]!}
      index={at}
      count={count}
      props={props}
      eager={props.priority && at === 0}
      open={open}
    />
  );
  const classes = [
    'gallery',
    `gallery--${design}`,
    props.style['--gallery-ratio'] ? 'gallery--cropped' : '',
    has('auto-crop') ? 'gallery--auto-crop' : '',
    has('square-thumbs') ? 'gallery--square-thumbs' : '',
    has('show-meta-on-hover') && !has('show-meta') ? 'gallery--meta-on-hover' : '',
    design === 'slider' ? `gallery--align-${props.activeAlignment}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const style = props.style as CSSProperties;

  const lightboxDialog =
    lightbox !== null ? (
      <GalleryLightbox
        images={images}
        index={lightbox}
        theme={props.lightboxTheme}
        label={label}
        onMove={(step) => setLightbox((at) => stepSlide(at ?? 0, count, step))}
        onClose={() => setLightbox(null)}
      />
    ) : null;

  if (!carousel) {
    return (
      <>
        <ul className={classes} style={style} aria-label={label}>
          {images.map((_, at) => (
            <li key={at} className="gallery__cell">
              {figure(at)}
            </li>
          ))}
        </ul>
        {lightboxDialog}
      </>
    );
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!mounted || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return;
    event.preventDefault();
    go(index + (event.key === 'ArrowRight' ? 1 : -1));
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHeld(false);
  };
  const showThumbnails = design === 'slideshow' && has('thumbnails') && count > 1;
  // Without thumbnails a slideshow lists its slides as numbered links, so every image is reachable without JavaScript.
  const showIndicators = count > 1 && (has('indicators') || (design === 'slideshow' && !showThumbnails));
  const stepButtons =
    mounted && has('controls') && count > 1 ? (
      <>
        <button
          type="button"
          className="gallery__step gallery__step--previous"
          onClick={() => go(index - 1)}
          aria-label={GALLERY_LABELS.previousSlide}
        >
          <Arrow back />
        </button>
        <button
          type="button"
          className="gallery__step gallery__step--next"
          onClick={() => go(index + 1)}
          aria-label={GALLERY_LABELS.nextSlide}
        >
          <Arrow back={false} />
        </button>
      </>
    ) : null;
  const choose = (at: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    go(at);
  };
  const current = (at: number) => (at === index ? 'true' : undefined);
  let slides: ReactNode;
  if (design === 'slideshow') {
    slides = (
      <div className="gallery__stage">
        {/* Announced when the visitor changes slide, not every few seconds while it plays (WAI-ARIA carousel). */}
        <div className="gallery__slides" aria-live={playing && !held ? 'off' : 'polite'}>
          <div
            key={index}
            className="gallery__slide"
            role="group"
            aria-roledescription="slide"
            aria-label={galleryPosition(index, count)}
          >
            {figure(index)}
          </div>
        </div>
        {stepButtons}
      </div>
    );
  } else {
    slides = (
      <div className="gallery__stage">
        <div className="gallery__track" ref={track}>
          {images.map((_, at) => (
            <div
              key={at}
              className="gallery__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={galleryPosition(at, count)}
              aria-current={mounted ? current(at) : undefined}
            >
              {figure(at)}
            </div>
          ))}
        </div>
        {stepButtons}
      </div>
    );
  }

  return (
    <>
      {/* The carousel hears the arrow keys, pointer and focus that bubble up from its links and buttons (WAI-ARIA carousel). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <section
        className={classes}
        style={style}
        aria-roledescription="carousel"
        aria-label={label}
        onKeyDown={onKeyDown}
        onMouseEnter={() => setHeld(true)}
        onMouseLeave={() => setHeld(false)}
        onFocus={() => setHeld(true)}
        onBlur={onBlur}
      >
        {mounted && autoplay ? (
          <button type="button" className="gallery__play" onClick={() => setPausedByVisitor(!paused)}>
            {paused ? GALLERY_LABELS.play : GALLERY_LABELS.pause}
          </button>
        ) : null}
        {slides}
        {showThumbnails ? (
          <ul className="gallery__thumbnails" aria-label={GALLERY_LABELS.slides}>
            {images.map((image, at) => (
              <li key={at}>
                <a className="gallery__thumbnail" href={image.largest} onClick={choose(at)} aria-current={current(at)}>
                  <img
                    src={image.thumb}
                    alt={image.alt || galleryPosition(at, count)}
                    loading="lazy"
                    decoding="async"
                    style={{ objectPosition: image.position }}
                  />
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        {showIndicators ? (
          <ol className="gallery__indicators" aria-label={GALLERY_LABELS.slides}>
            {images.map((image, at) => (
              <li key={at}>
                <a
                  className="gallery__indicator"
                  href={image.largest}
                  onClick={choose(at)}
                  aria-current={current(at)}
                  aria-label={`${galleryPosition(at, count)}${image.alt ? `: ${image.alt}` : ''}`}
                />
              </li>
            ))}
          </ol>
        ) : null}
      </section>
      {lightboxDialog}
    </>
  );
}
