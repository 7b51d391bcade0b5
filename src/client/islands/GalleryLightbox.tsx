/**
 * A gallery's lightbox (§3 flag 'lightbox', §9 theme dark or light): one image at a time, large, in a modal <dialog>.
 * Focus moves to its close button and stays inside (showModal, and Tab wraps around its buttons); ArrowLeft / ArrowRight and the previous / next buttons
 * move through the gallery (wrapping); Escape, the close button or a click on the backdrop close it, and focus goes
 * back to the image link that opened it (useModalDialog).
 */
import { useRef, type KeyboardEvent } from 'react';
import { GALLERY_LABELS, galleryPosition, type GalleryLightboxTheme } from '../../core/gallery';
import type { GalleryImageView } from './Gallery';
import { useModalDialog } from './useModalDialog';
import { DialogCloseButton } from './DialogCloseButton';

export interface GalleryLightboxProps {
  images: readonly GalleryImageView[];
  index: number;
  theme: GalleryLightboxTheme;
  /** The gallery's name, which names the dialog. */
  label: string;
  onMove(step: number): void;
  onClose(): void;
}

function Arrow({ back }: { back: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
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

/**
 * Tab from the last button goes to the first, Shift+Tab from the first to the last: a modal <dialog> keeps focus out
 * of the page behind, but Chromium lets Tab leave it for the browser's own controls.
 */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('button')];
  const first = buttons[0];
  const last = buttons[buttons.length - 1];
  const at = document.activeElement;
  if (event.shiftKey ? at === first : at === last) {
    event.preventDefault();
    (event.shiftKey ? last : first)?.focus();
  }
}

export function GalleryLightbox({ images, index, theme, label, onMove, onClose }: GalleryLightboxProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useModalDialog(ref, '.gallery-lightbox__close', onClose);
  const image = images[index];
  if (!image) return null;
  const several = images.length > 1;
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Tab') return keepFocusInside(event);
    if (!several || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return;
    event.preventDefault();
    onMove(event.key === 'ArrowRight' ? 1 : -1);
  };
  return (
    <dialog
      ref={ref}
      className={`gallery-lightbox gallery-lightbox--${theme}`}
      aria-label={`${GALLERY_LABELS.lightbox}: ${label}`}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <DialogCloseButton className="gallery-lightbox__close" label={GALLERY_LABELS.close} onClose={onClose} size={24} />
      <figure className="gallery-lightbox__figure">
        <img
          key={index}
          className="gallery-lightbox__image"
          src={image.largest}
          srcSet={image.srcSet}
          sizes="100vw"
          width={image.width}
          height={image.height}
          alt={image.alt}
          decoding="async"
        />
        {image.title || image.description ? (
          <figcaption className="gallery-lightbox__caption">
            {image.title ? <strong>{image.title}</strong> : null} {image.description ?? null}
          </figcaption>
        ) : null}
      </figure>
      {several ? (
        <div className="gallery-lightbox__nav">
          <button
            type="button"
            className="gallery-lightbox__step"
            onClick={() => onMove(-1)}
            aria-label={GALLERY_LABELS.previousImage}
          >
            <Arrow back />
          </button>
          <p className="gallery-lightbox__position" aria-live="polite">
            {galleryPosition(index, images.length)}
          </p>
          <button
            type="button"
            className="gallery-lightbox__step"
            onClick={() => onMove(1)}
            aria-label={GALLERY_LABELS.nextImage}
          >
            <Arrow back={false} />
          </button>
        </div>
      ) : null}
    </dialog>
  );
}
