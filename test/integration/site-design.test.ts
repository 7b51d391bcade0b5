/**
 * The site's design (website.design, issue 26) as the storefront renders it, on both engines: the custom properties in
 * one <style> of the head (allowed by its hash in the page's Content-Security-Policy), the favicon, the logo with its
 * alt text, the design's menu and footer links in their order; a site without a design keeps today's page; a file
 * whose colours lack contrast is refused with the pair and ratio named and changes nothing; a new import shows the new
 * design at once (pages are cached per site version).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportSite } from '../../src/modules/site/export';
import { importSite, SiteFileError } from '../../src/modules/site/import';
import { DEMO_SITE_FILE, startServer, type RunningServer } from '../browser/server';
import { TEST_DESIGN } from '../support/design';
import { describeEachEngine } from '../support/engines';

type EditableSite = { website: Record<string, unknown> };
const demoWith = (design: unknown) => {
  const site = JSON.parse(readFileSync(DEMO_SITE_FILE, 'utf8')) as EditableSite;
  delete site.website.promoPopup;
  site.website.design = design;
  return JSON.stringify(site);
};

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const styleOf = (html: string) => /<head>.*<style>([^<]*)<\/style>.*<\/head>/.exec(html)?.[1];
const navHrefs = (html: string) => {
  const nav = /<nav class="site-nav site-nav--wide" aria-label="Main">(.*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
};

describeEachEngine(
  (engine) => `the site's design (${engine})`,
  (engine) => {
    let demo: RunningServer;
    let designed: RunningServer;
    beforeAll(async () => {
      [demo, designed] = await Promise.all([
        startServer({ engine }),
        startServer({ engine, editSite: (site) => void ((site as EditableSite).website.design = TEST_DESIGN) }),
      ]);
    });
    afterAll(async () => Promise.all([demo?.close(), designed?.close()]));
    const get = async (server: RunningServer, url = '/') => {
      const res = await server.app.inject({ method: 'GET', url });
      return { html: res.body, csp: String(res.headers['content-security-policy']) };
    };

    it("keeps today's page for a site without a design: no style element, no favicon, the navigation of today", async () => {
      const { html, csp } = await get(demo);
      expect(styleOf(html)).toBeUndefined();
      expect(html).toContain('<link rel="icon" href="data:,">');
      expect(html).toContain('<a class="site-title" href="/">Vitrine Demo Store</a>');
      expect(navHrefs(html)).toEqual(['/', '/shop', '/blog', '/about', '/contact', '/cart']);
      expect(html).not.toContain('class="footer-links"');
      expect(csp).toContain("style-src 'self'");
    });

    it('sets the custom properties once in the head, allowed by their hash, and links the favicon', async () => {
      const { html, csp } = await get(designed);
      const css = styleOf(html)!;
      expect(css).toContain('--site-background:#fffbf2;--site-text:#1b1b3a;--site-accent:#6a1b9a;');
      expect(css).toContain('--site-button-background:#1b1b3a;--site-button-text:#ffffff;');
      expect(css).toContain("--site-heading-font:'Playfair Display', 'Iowan Old Style'");
      expect(css).toContain("--site-body-font:'Inter', ui-sans-serif");
      expect(css).toContain('--site-button-radius:0');
      expect(html.match(/<style>/g)).toHaveLength(1);
      // (The home page's images add their focal points' hashes after it.)
      expect(csp).toMatch(new RegExp(`style-src 'self'( 'unsafe-hashes')? ${hashOf(css).replace(/[+/]/g, '\\$&')}`));
      expect(html).toMatch(/<link rel="icon" href="\/assets\/demo\/images\/coffee-scoop\.jpg\?v=\d+&amp;format=\d+w">/);
      // The favicon is served.
      const icon = /<link rel="icon" href="([^"]*)">/.exec(html)![1]!.replace(/&amp;/g, '&');
      expect((await designed.app.inject({ method: 'GET', url: icon })).statusCode).toBe(200);
    });

    it('serves the chosen fonts from its own origin, hashed, immutable, swapped in, each preloaded', async () => {
      const { html, csp } = await get(designed);
      const css = styleOf(html)!;
      const faces = [
        ...css.matchAll(
          /@font-face\{font-family:'([^']+)';[^}]*font-weight:(\d+);font-display:swap;src:url\(([^)]+)\)/g,
        ),
      ];
      expect(faces.map((f) => `${f[1]} ${f[2]}`)).toEqual(['Playfair Display 600', 'Inter 400', 'Inter 600']);
      for (const [, , , url] of faces) {
        expect(url).toMatch(/^\/fonts\/[a-z0-9-]+-latin-\d00-normal\.[0-9a-f]{12}\.woff2$/);
        const font = await designed.app.inject({
          method: 'GET',
          url: url!,
          headers: { 'accept-encoding': 'br, gzip' },
        });
        expect(font.statusCode).toBe(200);
        expect(font.headers['content-type']).toBe('font/woff2');
        expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(font.headers['content-encoding']).toBeUndefined();
        expect(font.rawPayload.subarray(0, 4).toString('latin1')).toBe('wOF2');
      }
      const preloads = [
        ...html.matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2" crossorigin>/g),
      ];
      expect(preloads.map((p) => p[1])).toEqual(faces.map((f) => f[3]));
      expect(csp).toContain("font-src 'self'");
      // Another hash, or a file that is not shipped, is not served.
      const wrong = faces[0]![3]!.replace(/\.[0-9a-f]{12}\./, '.000000000000.');
      expect((await designed.app.inject({ method: 'GET', url: wrong })).statusCode).toBe(404);
      expect((await designed.app.inject({ method: 'GET', url: '/fonts/..%2Fpackage.json' })).statusCode).toBe(404);
      // A site on system fonts sends no font at all.
      expect((await get(demo)).html).not.toMatch(/@font-face|rel="preload"[^>]*as="font"/);
    });

    it("shows the logo with its alt text in place of the name, the menu and footer links in the design's order", async () => {
      const { html } = await get(designed, '/about');
      expect(html).toMatch(
        /<a class="site-title site-logo" href="\/"><img src="\/assets\/demo\/images\/bud-vase\.jpg\?v=\d+&amp;format=\d+w" alt="Vitrine Demo home" width="\d+" height="\d+"/,
      );
      expect(navHrefs(html)).toEqual(['/about', '/shop', '/', '/cart']);
      expect(html).toContain('<a href="/about" aria-current="page">About</a>');
      expect(html).toContain(
        '<nav class="footer-links" aria-label="Footer"><ul><li><a href="/about">About us</a></li><li><a href="https://example.com/terms">Terms</a></li></ul></nav>',
      );
    });

    it('exports the design as imported, with its logo and favicon files', async () => {
      const exported = await exportSite(designed.db!, 'demo');
      expect(exported.site.website.design).toEqual(TEST_DESIGN);
      const files = exported.assets.map((a) => a.path);
      expect(files).toEqual(expect.arrayContaining([TEST_DESIGN.logo.file, TEST_DESIGN.favicon.file]));
    });

    it('refuses colours without contrast, naming the pair and ratio, and changes nothing', async () => {
      const before = await get(designed);
      const refuse = async (design: unknown) => {
        try {
          await importSite(designed.db!, demoWith(design), dirname(DEMO_SITE_FILE));
        } catch (error) {
          expect(error).toBeInstanceOf(SiteFileError);
          return (error as SiteFileError).problems;
        }
        throw new Error('imported');
      };
      expect(await refuse({ ...TEST_DESIGN, colours: { background: '#ffffff', text: '#777777' } })).toEqual([
        'website.design.colours: text #777777 on background #ffffff has contrast 4.48:1; at least 4.5:1 is needed',
      ]);
      expect(await refuse({ colours: { accent: '#cccccc' } })).toEqual([
        'website.design.colours: button text #ffffff on button background #cccccc has contrast 1.61:1; at least 4.5:1 is needed',
        'website.design.colours: accent #cccccc on background #ffffff has contrast 1.61:1; at least 4.5:1 is needed',
      ]);
      expect(
        await refuse({
          menu: ['about', 'nowhere', 'about'],
          footerLinks: [
            { label: 'Gone', page: 'gone' },
            { label: 'Plain', url: 'http://example.com' },
          ],
          logo: { file: 'images/no-such.png', altText: ' ' },
          buttonShape: 'round',
        }),
      ).toEqual(
        expect.arrayContaining([
          "website.design.buttonShape: must be one of 'square', 'rounded', 'pill'",
          "website.design.logo.file: image file 'images/no-such.png' not found next to the site file",
        ]),
      );
      expect(
        await refuse({ menu: ['about', 'nowhere', 'about'], footerLinks: [{ label: 'Gone', page: 'gone' }] }),
      ).toEqual([
        "website.design.menu[1]: 'nowhere' is not a page or a product or blog collection of this site",
        "website.design.menu[2]: 'about' is already in the menu",
        "website.design.footerLinks[0].page: 'gone' is not a page of this site",
      ]);
      const after = await get(designed);
      expect(styleOf(after.html)).toBe(styleOf(before.html));
    });

    it('shows a new import’s design at once (pages are cached per site version)', async () => {
      const first = await get(designed);
      await get(designed); // cached
      await importSite(
        designed.db!,
        demoWith({ ...TEST_DESIGN, colours: { accent: '#0b5394' }, menu: undefined, footerLinks: [] }),
        dirname(DEMO_SITE_FILE),
      );
      const { html } = await get(designed);
      expect(styleOf(html)).not.toBe(styleOf(first.html));
      expect(styleOf(html)).toContain('--site-accent:#0b5394;--site-button-background:#0b5394;');
      expect(navHrefs(html)).toEqual(['/', '/shop', '/blog', '/about', '/contact', '/cart']);
      expect(html).not.toContain('class="footer-links"');
    });
  },
);
