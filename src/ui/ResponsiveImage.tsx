import {
  buildSrcset,
  imageAltText,
  imageLoading,
  imageUrl,
  objectPosition,
  srcsetWidths,
  thumbnailWidth,
  type ImagePriority,
} from '../core/images';
import { createContext, useContext } from 'react';
import type { Image } from '../modules/site/schema';

/**
 * URL of a site image as src/server/routes/assets.ts serves it. With the site version the URL names one exact
 * image forever (a re-import bumps the version), so it can be cached for a year.
 */
export const assetUrl = (siteId: string, file: string, siteVersion?: number): string =>
  `/assets/${encodeURIComponent(siteId)}/${file.split('/').map(encodeURIComponent).join('/')}${siteVersion === undefined ? '' : `?v=${siteVersion}`}`;

/** The site being rendered (set once per page by the renderer): its version, and its images' sizes by file path. */
export interface SiteImages {
  version?: number;
  sizes?: ReadonlyMap<string, { width: number; height: number }>;
}
export const SiteImagesContext = createContext<SiteImages>({});

/** What an <img> of a site image says (§9): its fallback src, srcset, intrinsic size, alt text and focal point. */
export interface ImageSources {
  src: string;
  srcSet: string;
  width?: number;
  height?: number;
  alt: string;
  /** CSS object-position of the focal point. */
  position: string;
  /** The largest rendition (never wider than the original): what a link to the whole image opens. */
  largest: string;
}

/**
 * The sources of `image` drawn about `displayWidth` CSS pixels wide: the fallback src is the §9 thumbnail threshold
 * covering that width, srcset lists every spec width up to the original's.
 */
export function imageSources(
  siteId: string,
  image: Image,
  site: SiteImages,
  displayWidth: number,
  originalWidth?: number,
): ImageSources {
  const url = assetUrl(siteId, image.file, site.version);
  const size = site.sizes?.get(image.file);
  const widths = srcsetWidths(originalWidth ?? size?.width);
  return {
    src: imageUrl(url, thumbnailWidth(displayWidth)),
    srcSet: buildSrcset(url, originalWidth ?? size?.width),
    width: size?.width,
    height: size?.height,
    alt: imageAltText({ altText: image.altText }),
    position: objectPosition(image.focalPoint),
    largest: imageUrl(url, widths[widths.length - 1]!),
  };
}

/**
 * A responsive image (§9): every spec width in srcset (never wider than the original when known), lazy unless
 * priority is high, cropped around its focal point by the surrounding box's aspect ratio, with its intrinsic size
 * when the site's images are known (SiteImagesContext).
 */
export function ResponsiveImage({
  siteId,
  image,
  sizes,
  priority,
  originalWidth,
  displayWidth = 750,
  className,
  hidden,
  data,
}: {
  siteId: string;
  image: Image;
  /** The `sizes` attribute: how wide the image is drawn at each viewport width. */
  sizes: string;
  priority?: ImagePriority;
  originalWidth?: number;
  /** CSS pixels of the usual rendering, to pick the fallback src. */
  displayWidth?: number;
  className?: string;
  /** Drawn but hidden (a product's picture of other option values, shown when they are chosen). */
  hidden?: boolean;
  /** data-* attributes of the <img>. */
  data?: Record<`data-${string}`, string> | undefined;
}) {
  const sources = imageSources(siteId, image, useContext(SiteImagesContext), displayWidth, originalWidth);
  // With its size known the browser reserves the image's box before it loads (no layout shift).
  return (
    <img
      className={className}
      src={sources.src}
      srcSet={sources.srcSet}
      width={sources.width}
      height={sources.height}
      sizes={sizes}
      alt={sources.alt}
      loading={imageLoading(priority)}
      decoding="async"
      fetchPriority={priority === 'high' ? 'high' : undefined}
      style={{ objectPosition: sources.position }}
      hidden={hidden}
      {...data}
    />
  );
}
