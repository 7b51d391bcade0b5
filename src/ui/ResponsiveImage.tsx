import { buildSrcset, imageAltText, imageLoading, imageUrl, objectPosition, thumbnailWidth, type ImagePriority } from '../core/images';
import { createContext, useContext } from 'react';
import type { Image } from '../site/schema';

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
}) {
  const site = useContext(SiteImagesContext);
  const url = assetUrl(siteId, image.file, site.version);
  const loading = imageLoading(priority);
  // With its size known the browser reserves the image's box before it loads (no layout shift).
  const size = site.sizes?.get(image.file);
  return (
    <img
      className={className}
      src={imageUrl(url, thumbnailWidth(displayWidth))}
      srcSet={buildSrcset(url, originalWidth ?? size?.width)}
      width={size?.width}
      height={size?.height}
      sizes={sizes}
      alt={imageAltText({ altText: image.altText })}
      loading={loading}
      decoding="async"
      fetchPriority={priority === 'high' ? 'high' : undefined}
      style={{ objectPosition: objectPosition(image.focalPoint) }}
    />
  );
}
