/**
 * Gallery blocks and image blocks as rendered HTML (§3 gallery options, §9 image widths and gallery defaults), on both
 * engines: every design with its options, focal points as object-position, srcset in the spec's widths, the first
 * large image of a page eager with high priority and the rest lazy; a gallery that needs no code is plain HTML, one
 * with slides or a lightbox is the lazy `Gallery` island; bad gallery options in a site file are named at import.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importSite, SiteFileError } from '../../src/modules/site/import';
import { DEMO_SITE_FILE, startServer, type RunningServer } from '../browser/server';
import { describeEachEngine, forEachEngine } from '../support/engines';

interface EditableSite {
  website: { store: Record<string, unknown> };
  pages?: { id: string; path: string; title: string; showInNavigation?: boolean; blocks: unknown[] }[];
}

const image = (file: string, extra: Record<string, unknown> = {}) => ({
  file: `images/${file}.jpg`,
  altText: `The ${file}`,
  ...extra,
});

/** A page of galleries, one of each design, with options set away from their defaults. */
const GALLERY_PAGE = {
  id: 'galleries',
  path: '/galleries',
  title: 'Galleries',
  showInNavigation: false,
  blocks: [
    { type: 'heading', text: 'Galleries', level: 1 },
    {
      type: 'gallery',
      label: 'Grid of mugs',
      design: 'grid',
      flags: ['show-meta-on-hover'],
      aspectRatio: 'four-three',
      thumbnailsPerRow: 3,
      margin: 8,
      padding: 0,
      metaPosition: 'top-right',
      images: [
        image('speckled-mug-oatmeal', { focalPoint: { x: 0.25, y: 0.75 }, title: 'Oatmeal' }),
        image('speckled-mug-slate'),
        image('speckled-mug-sage'),
      ],
    },
    {
      type: 'gallery',
      label: 'Stack of bowls',
      design: 'stacked',
      flags: ['lightbox'],
      lightboxTheme: 'light',
      margin: 40,
      images: [image('stoneware-bowl'), image('latte-bowls')],
    },
    {
      type: 'gallery',
      label: 'Carousel of cups',
      design: 'carousel',
      flags: ['controls', 'indicators', 'autoplay', 'auto-crop'],
      activeAlignment: 'left',
      autoplayDelay: 3,
      maxWidth: 200,
      images: [image('espresso-cups'), image('dinner-plate'), image('bud-vase')],
    },
    {
      type: 'gallery',
      label: 'Slides without thumbnails',
      design: 'slideshow',
      flags: ['controls'],
      images: [image('house-blend'), image('ethiopia-yirgacheffe')],
    },
  ],
};

const imgs = (html: string) => [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'");
/** The HTML of the gallery named `label`: from its block's wrapper to the end of its root (a <section> or a <ul>). */
function galleryHtml(body: string, label: string): string {
  const start = body.indexOf(`aria-label="${label}"`);
  expect(start, label).toBeGreaterThan(-1);
  const from = body.lastIndexOf('<div class="page-block-gallery">', start);
  const root = body.lastIndexOf('<', start);
  const close = body.startsWith('<section', root) ? '</section>' : '</ul>';
  return body.slice(from, body.indexOf(close, start) + close.length);
}
const islandProps = (html: string) =>
  JSON.parse(unescape(/data-props="([^"]*)"/.exec(html)?.[1] ?? '{}')) as Record<string, unknown>;

describeEachEngine(
  (engine) => `gallery and image blocks (${engine})`,
  (engine) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({
        engine,
        editSite: (site) => void (site as EditableSite).pages?.push(GALLERY_PAGE),
      });
    });
    afterAll(async () => server?.close());
    const get = async (url: string) => {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      return { body: res.body, csp: String(res.headers['content-security-policy']) };
    };

    it("renders the demo's slideshow on /about: first slide eager with high priority, focal point, spec widths, thumbnails linking to each image", async () => {
      const { body, csp } = await get('/about');
      const html = galleryHtml(body, 'Inside the studio');
      expect(html).toContain('data-island="Gallery"');
      expect(html).toContain('<section class="gallery gallery--slideshow gallery--cropped gallery--auto-crop"');
      expect(html).toContain('aria-roledescription="carousel"');
      expect(html).toMatch(/role="group" aria-roledescription="slide" aria-label="1 of 5"/);
      const [slide, ...thumbs] = imgs(html);
      expect(attr(slide!, 'alt')).toBe('Clay on a pottery wheel');
      expect(attr(slide!, 'loading')).toBe('eager');
      expect(attr(slide!, 'fetchpriority')).toBe('high');
      expect(attr(slide!, 'style')).toBe('object-position:50% 40%');
      expect(attr(slide!, 'width')).toBe('1500');
      const widths = [...unescape(attr(slide!, 'srcset') ?? '').matchAll(/ (\d+)w/g)].map((m) => Number(m[1]));
      expect(widths).toEqual([100, 300, 500, 750, 1000, 1500]);
      expect(attr(slide!, 'sizes')).toBe('(min-width: 1160px) 1160px, 100vw');
      // The slide links to its largest rendition (the lightbox with JavaScript).
      expect(html).toContain(
        '<a class="gallery__link" href="/assets/demo/images/post-studio.jpg?v=1&amp;format=1500w"',
      );
      // Thumbnails: one link per image, lazy, the first marked current; the strip's height is the §9 default.
      expect(thumbs).toHaveLength(5);
      for (const thumb of thumbs) expect(attr(thumb, 'loading')).toBe('lazy');
      expect([...html.matchAll(/class="gallery__thumbnail" href="([^"]+)"/g)].map((m) => unescape(m[1]!))).toEqual(
        ['post-studio', 'speckled-mug-oatmeal', 'stoneware-bowl', 'post-glazes', 'post-brewing'].map(
          (f) => `/assets/demo/images/${f}.jpg?v=1&format=1500w`,
        ),
      );
      expect(html).toMatch(/class="gallery__thumbnail"[^>]*aria-current="true"/);
      // Its caption (show-meta) at the chosen position; its custom properties (a hashed style attribute, §9 numbers).
      expect(html).toContain(
        '<figcaption class="gallery__meta gallery__meta--bottom-left"><span class="gallery__meta-title">The wheel</span>',
      );
      expect(html).toContain(
        'style="--gallery-gap:20px;--gallery-padding:20px;--gallery-columns:4;--gallery-thumb-height:80px;--gallery-meta-width:300px;--gallery-ratio:3 / 2"',
      );
      expect(csp).toContain("'unsafe-hashes'");
      // Buttons that need JavaScript appear once the island runs: none in the server's HTML.
      expect(html).not.toContain('Next slide');
      expect(islandProps(html)).toMatchObject({
        design: 'slideshow',
        lightboxTheme: 'dark',
        autoplayDelayMs: 5000,
        priority: true,
      });
    });

    it('renders every design with its options', async () => {
      const { body } = await get('/galleries');

      // Grid without a lightbox: plain HTML (no island), its columns, gap, frame and hover captions.
      const grid = galleryHtml(body, 'Grid of mugs');
      expect(grid).not.toContain('data-island');
      expect(grid).toContain('<ul class="gallery gallery--grid gallery--cropped gallery--meta-on-hover"');
      expect(grid).toContain('--gallery-gap:8px;--gallery-padding:0px;--gallery-columns:3;');
      expect(grid).toContain('--gallery-ratio:4 / 3');
      expect(grid).not.toContain('<a ');
      const gridImages = imgs(grid);
      expect(gridImages).toHaveLength(3);
      expect(attr(gridImages[0]!, 'style')).toBe('object-position:25% 75%');
      expect(attr(gridImages[1]!, 'style')).toBe('object-position:50% 50%');
      expect(attr(gridImages[0]!, 'sizes')).toBe('(min-width: 1160px) 387px, (min-width: 700px) 34vw, 50vw');
      // The fallback src is the §9 thumbnail threshold that covers a 387 px column.
      expect(unescape(attr(gridImages[0]!, 'src') ?? '')).toBe(
        '/assets/demo/images/speckled-mug-oatmeal.jpg?v=1&format=500w',
      );
      // The page's first large image: the grid's first one; every later image is lazy.
      expect(gridImages.map((img) => attr(img, 'loading'))).toEqual(['eager', 'lazy', 'lazy']);
      expect(grid).toContain(
        '<figcaption class="gallery__meta gallery__meta--top-right"><span class="gallery__meta-title">Oatmeal</span>',
      );

      // Stacked with a light lightbox: the island; each image a link to its largest rendition.
      const stack = galleryHtml(body, 'Stack of bowls');
      expect(stack).toContain('data-island="Gallery"');
      expect(stack).toContain('<ul class="gallery gallery--stacked"');
      expect(stack).toContain('--gallery-gap:40px');
      expect([...stack.matchAll(/class="gallery__link" href="([^"]+)"/g)]).toHaveLength(2);
      expect(imgs(stack).map((img) => attr(img, 'loading'))).toEqual(['lazy', 'lazy']);
      expect(islandProps(stack)).toMatchObject({ design: 'stacked', lightboxTheme: 'light', flags: ['lightbox'] });

      // 'carousel' is the slider: every slide in one scrolling row, aligned left, square frames (auto-crop), dots.
      const slider = galleryHtml(body, 'Carousel of cups');
      expect(slider).toContain(
        '<section class="gallery gallery--slider gallery--cropped gallery--auto-crop gallery--align-left"',
      );
      expect(slider).toContain('--gallery-ratio:1 / 1');
      expect(slider).toContain('--gallery-meta-width:200px');
      expect(slider.match(/aria-roledescription="slide"/g)).toHaveLength(3);
      expect(slider.match(/class="gallery__indicator"/g)).toHaveLength(3);
      expect(slider).toContain('aria-label="2 of 3: The dinner-plate"');
      expect(slider).not.toContain('gallery__link');
      expect(islandProps(slider)).toMatchObject({ design: 'slider', autoplayDelayMs: 3000, activeAlignment: 'left' });
      // The pause button needs JavaScript: the island adds it.
      expect(slider).not.toContain('Pause slideshow');

      // A slideshow without thumbnails lists its slides as numbered links, so each image is reachable without JavaScript.
      const slides = galleryHtml(body, 'Slides without thumbnails');
      expect(imgs(slides)).toHaveLength(1);
      expect(slides).not.toContain('gallery__thumbnails');
      expect(
        [...slides.matchAll(/class="gallery__indicator" href="([^"]+)"[^>]*aria-label="([^"]+)"/g)].map((m) => m[2]),
      ).toEqual(['1 of 2: The house-blend', '2 of 2: The ethiopia-yirgacheffe']);
    });

    it('keeps the home page hero the first large image of the page: eager, high priority', async () => {
      const { body } = await get('/');
      const loading = imgs(body).map((img) => attr(img, 'loading'));
      expect(loading[0]).toBe('eager');
      expect(attr(imgs(body)[0]!, 'fetchpriority')).toBe('high');
    });
  },
);

forEachEngine((_engine, getDb) => {
  const demo = () => JSON.parse(readFileSync(DEMO_SITE_FILE, 'utf8')) as EditableSite & Record<string, unknown>;
  const refusal = async (blocks: unknown[]): Promise<string[]> => {
    const site = demo();
    site.pages = [{ id: 'g', path: '/g', title: 'G', blocks }];
    try {
      await importSite(getDb(), JSON.stringify(site), dirname(DEMO_SITE_FILE));
    } catch (error) {
      expect(error).toBeInstanceOf(SiteFileError);
      return (error as SiteFileError).problems;
    }
    throw new Error('the site file was imported');
  };

  it('names bad gallery options at import', async () => {
    const problems = await refusal([
      {
        type: 'gallery',
        design: 'masonry',
        autoplayDelay: 12,
        thumbnailsPerRow: 2.5,
        lightboxTheme: 'sepia',
        flags: ['zoom'],
        images: [image('hero')],
      },
      { type: 'gallery', images: [] },
      { type: 'gallery', images: [image('no-such-image')] },
    ]);
    expect(problems.join('\n')).toMatch(/pages\[0\] \(id 'g', "G"\)\.blocks\[0\]\.design: .*'grid'.*'carousel'/);
    expect(problems).toContain(`pages[0] (id 'g', "G").blocks[0].autoplayDelay: must be at most 10`);
    expect(problems).toContain(`pages[0] (id 'g', "G").blocks[0].thumbnailsPerRow: must be a whole number`);
    expect(problems.join('\n')).toMatch(/pages\[0\] \(id 'g', "G"\)\.blocks\[0\]\.lightboxTheme: .*'dark'/);
    expect(problems.join('\n')).toMatch(/pages\[0\] \(id 'g', "G"\)\.blocks\[0\]\.flags\[0\]: .*'lightbox'/);
    expect(problems).toContain(`pages[0] (id 'g', "G").blocks[1].images: must list at least one image`);
    expect(problems.join('\n')).toContain(
      `pages[0] (id 'g', "G").blocks[2].images[0].file: image file 'images/no-such-image.jpg' not found next to the site file`,
    );
  });
});
