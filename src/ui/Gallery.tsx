/**
 * A gallery block of a page (§3, §9; docs/site-file.md "gallery"): its images' sources in the spec's widths, cropped
 * around their focal points, and its options as the island's props. Slideshows, sliders and galleries with a lightbox
 * are the lazy `Gallery` island (its code loads only on pages that have one); a grid or a stack without a lightbox
 * needs no code and is the same component rendered as plain HTML.
 */
import { useContext } from 'react';
import {
  autoplayDelayMs,
  GALLERY_ASPECT_RATIO_VALUES,
  GALLERY_LABELS,
  galleryImageSizes,
  parseGalleryDesign,
} from '../core/gallery';
import { imageUrl, thumbnailWidth } from '../core/images';
import { Gallery as GalleryIsland, type GalleryProps } from '../client/islands/Gallery';
import type { GalleryBlock } from '../modules/site/schema';
import { Island } from './Island';
import { assetUrl, imageSources, SiteImagesContext, type SiteImages } from './ResponsiveImage';

/** The island's props for a gallery block; `priority`: its first image is the page's first large one. */
export function galleryProps(siteId: string, block: GalleryBlock, site: SiteImages, priority: boolean): GalleryProps {
  const design = parseGalleryDesign(block.design);
  const { sizes, displayWidth } = galleryImageSizes(design, block.thumbnailsPerRow);
  // Thumbnails are drawn at the strip's height; twice that covers a sharp screen (square or landscape).
  const thumbWidth = thumbnailWidth(Math.max(block.thumbnailStripHeight, 40) * 2);
  const style: GalleryProps['style'] = {
    '--gallery-gap': `${block.margin}px`,
    '--gallery-padding': `${block.padding}px`,
    '--gallery-columns': String(block.thumbnailsPerRow),
    '--gallery-thumb-height': `${block.thumbnailStripHeight}px`,
    '--gallery-meta-width': `${block.maxWidth}px`,
  };
  // The images' frame: the aspect ratio; auto-crop without one crops them square.
  const ratio = block.aspectRatio ?? (block.flags.includes('auto-crop') ? 'square' : undefined);
  if (ratio) style['--gallery-ratio'] = GALLERY_ASPECT_RATIO_VALUES[ratio];
  // A thumbnail strip 0 pixels high is no strip.
  const flags = [...new Set(block.flags)].filter((flag) => flag !== 'thumbnails' || block.thumbnailStripHeight > 0);
  return {
    design,
    label: block.label ?? GALLERY_LABELS.gallery,
    images: block.images.map((image) => {
      const sources = imageSources(siteId, image, site, displayWidth);
      return {
        ...sources,
        thumb: imageUrl(assetUrl(siteId, image.file, site.version), thumbWidth),
        ...(image.title ? { title: image.title } : {}),
        ...(image.description ? { description: image.description } : {}),
      };
    }),
    flags,
    sizes,
    priority,
    lightboxTheme: block.lightboxTheme,
    metaPosition: block.metaPosition,
    activeAlignment: block.activeAlignment,
    autoplayDelayMs: autoplayDelayMs(block.autoplayDelay),
    style,
  };
}

export function Gallery({
  siteId,
  block,
  index,
  priority,
}: {
  siteId: string;
  block: GalleryBlock;
  index: number;
  priority: boolean;
}) {
  const props = galleryProps(siteId, block, useContext(SiteImagesContext), priority);
  const interactive = props.design === 'slideshow' || props.design === 'slider' || props.flags.includes('lightbox');
  return (
    <div className="page-block-gallery">
      {interactive ? <Island name="Gallery" id={`gallery-${index}`} props={props} /> : <GalleryIsland {...props} />}
    </div>
  );
}
