/**
 * Video and audio blocks, blog posts' comment links, categories, tags, events, share and social links, and the like
 * route (§2, §3, §4, §9), as rendered HTML and HTTP answers on both engines, with the demo site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIKER_COOKIE } from '../../src/core/likes';
import { importSite, SiteFileError } from '../../src/modules/site/import';
import { DEMO_SITE_FILE, startServer, type RunningServer } from '../browser/server';
import { withCrumb } from '../support/crumb';
import { describeEachEngine, forEachEngine } from '../support/engines';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

interface EditablePost {
  id: string;
  collectionId: string;
  slug: string;
  title: string;
  publishedOn: string;
  categories?: string[];
  tags?: string[];
}

const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'");
const between = (html: string, start: string, end: string) => {
  const from = html.indexOf(start);
  expect(from, start).toBeGreaterThan(-1);
  return html.slice(from, html.indexOf(end, from) + end.length);
};

/** Twelve more posts in the 'Ceramics' category: its list has two pages. */
const morePosts = (site: { posts?: EditablePost[] }) => {
  for (let n = 1; n <= 12; n++) {
    site.posts?.push({
      id: `kiln-log-${n}`,
      collectionId: 'journal',
      slug: `kiln-log-${n}`,
      title: `Kiln log ${n}`,
      publishedOn: '2025-12-01',
      categories: ['Ceramics'],
      tags: [],
    });
  }
};

describeEachEngine(
  (engine) => `video, audio, blog and social fragments (${engine})`,
  (engine) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ engine, editSite: (site) => morePosts(site as { posts?: EditablePost[] }) });
    });
    afterAll(async () => server?.close());
    const get = async (url: string, status = 200) => {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(status);
      return { body: res.body, csp: String(res.headers['content-security-policy']) };
    };

    it('shows a video block as its overlay image with a play link to the video, allowing only its player origin as a frame', async () => {
      const { body, csp } = await get('/about');
      const video = between(body, '<figure class="video-block"', '</figure>');
      expect(video).toContain('data-frame-src="https://www.youtube-nocookie.com"');
      expect(video).toMatch(/<img [^>]*class="video-block__overlay"/);
      expect(video).toContain('data-island="VideoPlayer"');
      expect(video).toContain('<a class="video-block__play" href="https://www.youtube.com/watch?v=ZbZSe6N_BXs">');
      expect(video).toContain(
        '<span class="visually-hidden">Play video: <!-- -->Throwing a bowl, start to finish</span>',
      );
      expect(video).toContain('style="aspect-ratio:1.7778"');
      // Nothing of the provider before it is played: no frame, no embed code.
      expect(body).not.toContain('<iframe');
      expect(unescape(video)).toContain('"src":"https://www.youtube-nocookie.com/embed/ZbZSe6N_BXs?feature=oembed"');
      expect(csp).toContain("frame-src 'self' https://www.youtube-nocookie.com;");
      expect(csp).toContain("script-src 'self';");
      // Other pages do not allow it.
      expect((await get('/contact')).csp).not.toContain('youtube');
    });

    it("shows a product's audio player (native, nothing loaded until played), allowing its file's origin as media", async () => {
      const { body, csp } = await get('/shop/p/brewing-guide');
      const audio = between(body, '<figure class="product-audio"', '</figure>');
      expect(audio).toContain('data-media-src="https://media.vitrine-demo.example"');
      expect(audio).toContain('<figcaption class="product-audio__title">Listen to a sample chapter</figcaption>');
      expect(audio).toMatch(
        /<audio class="product-audio__player" controls="" preload="none" src="https:\/\/media\.vitrine-demo\.example\/brewing-guide-sample\.mp3" aria-label="Listen to a sample chapter">/,
      );
      expect(audio).toContain(
        '<details class="product-audio__transcript"><summary>Transcript</summary><p>Chapter one: grind.',
      );
      expect(csp).toContain("media-src 'self' https://media.vitrine-demo.example;");
      expect((await get('/shop/p/speckled-mug')).body).not.toContain('product-audio');
    });

    it("lists posts with comment links and the core's labels, event dates in the site's zone and category links", async () => {
      const { body } = await get('/blog');
      expect(body).toContain('<a class="post-comments-link" href="/blog/glaze-notes-cobalt#comments">3 Comments</a>');
      expect(body).toContain(
        '<a class="post-comments-link" href="/blog/the-only-brew-ratio-you-need#comments">1 Comment</a>',
      );
      expect(body).toContain('<a class="post-comments-link" href="/blog/studio-open-day#comments">No Comments</a>');
      // A post without comments enabled and none public shows no link.
      expect(body).not.toContain('href="/blog/kiln-log-1#comments"');
      expect(body).toContain('<p class="post-meta"><time dateTime="2025-12-01">December 1, 2025</time></p>');
      expect(body).toMatch(
        /<p class="post-event post-event--compact"><time dateTime="2026-06-13T10:00:00-04:00">Saturday, June 13, 2026, 10:00\sAM\s–\s4:00\sPM EDT<\/time> · <!-- -->Vitrine Studio, 12 Kiln Lane, Brooklyn, NY 11201, United States<\/p>/,
      );
      expect(body).toContain('<a href="/blog/category/studio-notes" rel="tag">Studio notes</a>');
    });

    it('shows an event post with its dates, place, add-to-calendar link, tags, hashtags, likes, share links and comments', async () => {
      const { body } = await get('/blog/studio-open-day');
      const event = between(body, '<section class="post-event"', '</section>');
      expect(event).toMatch(
        /<dt>When<\/dt><dd><time dateTime="2026-06-13T10:00:00-04:00">Saturday, June 13, 2026, 10:00\sAM\s–\s4:00\sPM EDT<\/time><\/dd>/,
      );
      expect(event).toContain('<dt>Where</dt><dd>Vitrine Studio, 12 Kiln Lane, Brooklyn, NY 11201, United States</dd>');
      const calendar = unescape(/class="post-event__calendar" href="([^"]+)"/.exec(event)![1]!);
      const url = new URL(calendar);
      expect(url.origin + url.pathname).toBe('https://www.google.com/calendar/render');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        action: 'TEMPLATE',
        text: 'Studio open day',
        dates: '20260613T140000Z/20260613T200000Z',
        location: 'Vitrine Studio, 12 Kiln Lane, Brooklyn, NY 11201, United States',
      });
      expect(body).toContain('<a class="hashtag" href="/blog/tag/openday" rel="tag">#openday</a>');
      expect(body).toContain('<a href="/blog/tag/events" rel="tag">#events</a>');
      expect(body).toContain('<a href="/blog/category/studio" rel="tag">Studio</a>');
      // Likes: the form works without JavaScript; the count as the page was made.
      const likes = between(body, '<div class="post-likes-area" id="likes">', '</form>');
      expect(likes).toContain('data-island="LikeButton"');
      expect(likes).toContain('<form class="post-likes" action="/api/content/likes/studio-open-day" method="post">');
      expect(likes).toContain('<span class="post-likes__count">0 likes</span>');
      // Share links: plain links built from the post's address, the site's networks in its order.
      const share = between(body, '<nav class="post-share" aria-label="Share this post">', '</nav>');
      const hrefs = [...share.matchAll(/href="([^"]+)"/g)].map((m) => unescape(m[1]!));
      expect(hrefs).toEqual([
        'https://www.facebook.com/sharer/sharer.php?u=http%3A%2F%2Flocalhost%2Fblog%2Fstudio-open-day',
        'https://x.com/intent/post?url=http%3A%2F%2Flocalhost%2Fblog%2Fstudio-open-day&text=Studio+open+day',
        'https://www.pinterest.com/pin/create/button/?url=http%3A%2F%2Flocalhost%2Fblog%2Fstudio-open-day&description=Studio+open+day',
        'mailto:?subject=Studio%20open%20day&body=http%3A%2F%2Flocalhost%2Fblog%2Fstudio-open-day',
      ]);
      expect(share).not.toContain('<script');
      expect(body).toContain(
        '<section class="post-comments" id="comments" aria-labelledby="comments-heading" tabindex="-1"><h2 id="comments-heading">No Comments</h2></section>',
      );
    });

    it('lists the posts of a category and of a tag (hashtags included), ten a page, and answers 404 past them', async () => {
      const ceramics = await get('/blog/category/ceramics');
      expect(ceramics.body).toContain('<h1>Category: Ceramics</h1>');
      expect(ceramics.body).toContain('Page 1 of 2');
      expect(ceramics.body.match(/<li class="post-card">/g)).toHaveLength(10);
      expect(ceramics.body).toContain('href="/blog/glaze-notes-cobalt"');
      expect(ceramics.body).not.toContain('href="/blog/studio-open-day"');
      expect(ceramics.body).toContain('<a class="pager__page" href="/blog/category/ceramics/page/2">');
      const second = await get('/blog/category/ceramics/page/2');
      expect(second.body.match(/<li class="post-card">/g)).toHaveLength(3);
      expect(second.body).toContain('Page 2 of 2');
      await get('/blog/category/ceramics/page/3', 404);
      await get('/blog/category/ceramics/page/1', 404);
      await get('/blog/category/Ceramics', 404);
      await get('/blog/category/pottery', 404);

      const glazes = await get('/blog/tag/glazes');
      expect(glazes.body).toContain('<h1>Tag: #glazes</h1>');
      expect(glazes.body).toContain('href="/blog/glaze-notes-cobalt"');
      // #cobalt is only in the post's text: its link lands on a list with the post.
      expect((await get('/blog/tag/cobalt')).body).toContain('href="/blog/glaze-notes-cobalt"');
      await get('/blog/tag/nothing-here', 404);
    });

    it("links the shop's social profiles in every page's footer under accessible names", async () => {
      for (const path of ['/', '/blog', '/shop/p/speckled-mug']) {
        const footer = between((await get(path)).body, '<footer class="site-footer">', '</footer>');
        expect(footer).toContain('<nav class="social-profiles" aria-label="Social media">');
        expect(footer).toContain(
          '<a class="social-profiles__link social-profiles__link--instagram" href="https://www.instagram.com/vitrine.demo" rel="me noopener noreferrer" aria-label="Vitrine Demo Store on Instagram">Instagram</a>',
        );
        expect(footer).toContain('aria-label="Vitrine Demo Store on YouTube"');
      }
    });
  },
);

describeEachEngine(
  (engine) => `the like route (${engine})`,
  (engine) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ engine });
    });
    afterAll(async () => server?.close());
    const likerOf = (res: { cookies: { name: string; value: string }[] }) =>
      res.cookies.find((c) => c.name === LIKER_COOKIE);

    it('counts one like per visitor, and says whether the visitor asking liked the post', async () => {
      const url = '/api/content/likes/glaze-notes';
      const before = await server.app.inject({ method: 'GET', url });
      expect(before.statusCode).toBe(200);
      expect(before.headers['cache-control']).toBe('no-store');
      expect(before.json()).toEqual({ postId: 'glaze-notes', likeCount: 0, liked: false });

      const first = await server.app.inject({
        method: 'POST',
        url,
        headers: withCrumb({ 'content-type': 'application/json' }),
        payload: '{}',
      });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ postId: 'glaze-notes', likeCount: 1, liked: true });
      const liker = likerOf(first);
      expect(liker).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect((liker as { maxAge?: number }).maxAge).toBe(365 * 24 * 60 * 60);

      // The same visitor again: still one.
      const again = await server.app.inject({
        method: 'POST',
        url,
        headers: withCrumb({ cookie: `${LIKER_COOKIE}=${liker!.value}` }),
      });
      expect(again.json()).toEqual({ postId: 'glaze-notes', likeCount: 1, liked: true });
      expect(likerOf(again)).toBeUndefined();
      // Another visitor.
      expect((await server.app.inject({ method: 'POST', url, headers: withCrumb() })).json()).toMatchObject({
        likeCount: 2,
      });

      expect(
        (
          await server.app.inject({ method: 'GET', url, headers: { cookie: `${LIKER_COOKIE}=${liker!.value}` } })
        ).json(),
      ).toEqual({ postId: 'glaze-notes', likeCount: 2, liked: true });
      expect((await server.app.inject({ method: 'GET', url })).json()).toEqual({
        postId: 'glaze-notes',
        likeCount: 2,
        liked: false,
      });
      // Likes of one post are not another's.
      expect(
        (await server.app.inject({ method: 'GET', url: '/api/content/likes/studio-open-day' })).json(),
      ).toMatchObject({ likeCount: 0 });
      // The post page, made after the likes, shows them.
      expect((await server.app.inject({ method: 'GET', url: '/blog/glaze-notes-cobalt' })).body).toContain(
        '<span class="post-likes__count">2 likes</span>',
      );
    });

    it('counts likes sent at once by one visitor (two tabs) once', async () => {
      const url = '/api/content/likes/brew-ratio';
      const cookie = `${LIKER_COOKIE}=AAAAAAAAAAAAAAAAAAAAAA`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => server.app.inject({ method: 'POST', url, headers: withCrumb({ cookie }) })),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
      expect((await server.app.inject({ method: 'GET', url, headers: { cookie } })).json()).toEqual({
        postId: 'brew-ratio',
        likeCount: 1,
        liked: true,
      });
    });

    it('takes the like form posted without JavaScript from the site itself, and returns to the post', async () => {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/content/likes/studio-open-day',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'http://localhost',
          'sec-fetch-site': 'same-origin',
          host: 'localhost',
        },
        payload: '',
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/blog/studio-open-day#likes');
      expect(
        (await server.app.inject({ method: 'GET', url: '/api/content/likes/studio-open-day' })).json(),
      ).toMatchObject({ likeCount: 1 });
    });

    it('refuses likes another website sends, or without the crumb', async () => {
      const cross = await server.app.inject({
        method: 'POST',
        url: '/api/content/likes/brew-ratio',
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      expect(cross.statusCode).toBe(403);
      const bare = await server.app.inject({ method: 'POST', url: '/api/content/likes/brew-ratio' });
      expect(bare.statusCode).toBe(403);
      expect((await server.app.inject({ method: 'GET', url: '/api/content/likes/brew-ratio' })).json()).toMatchObject({
        likeCount: 1,
      });
    });

    it('names what was wrong: an unknown post, a bad id', async () => {
      const unknown = await server.app.inject({
        method: 'POST',
        url: '/api/content/likes/no-such-post',
        headers: withCrumb(),
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({
        code: 'post-not-found',
        message: 'This site has no blog post with that id.',
      });
      const bad = await server.app.inject({ method: 'GET', url: '/api/content/likes/Bad%20Id' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('postId');
      expect(bad.body).toContain('must be a post id');
    });

    it('is rate-limited per client', async () => {
      const answers: number[] = [];
      for (let n = 0; n < 32; n++)
        answers.push(
          (await server.app.inject({ method: 'GET', url: '/api/content/likes/brew-ratio', remoteAddress: '10.9.8.7' }))
            .statusCode,
        );
      expect(answers.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(answers.slice(30)).toEqual([429, 429]);
    });
  },
);

describeEachEngine(
  (engine) => `likes turned off (${engine})`,
  (engine) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({
        engine,
        editSite: (site) =>
          void ((site.website as unknown as { comments: Record<string, boolean> }).comments = {
            commentsEnabled: false,
            simpleLikingEnabled: false,
          }),
      });
    });
    afterAll(async () => server?.close());

    it('shows no like button or comment links, and refuses likes with a reason', async () => {
      const page = await server.app.inject({ method: 'GET', url: '/blog/glaze-notes-cobalt' });
      expect(page.body).not.toContain('post-likes');
      expect(page.body).not.toContain('Comment');
      const like = await server.app.inject({
        method: 'POST',
        url: '/api/content/likes/glaze-notes',
        headers: withCrumb(),
      });
      expect(like.statusCode).toBe(403);
      expect(like.json()).toMatchObject({
        code: 'likes-not-enabled',
        message: 'Likes are not turned on for this site.',
      });
    });
  },
);

describe('site files with bad video, audio, event or social fields', () =>
  forEachEngine((_engine, getDb) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the demo file, edited freely to break it
    type Json = Record<string, any>;
    const demo = () => JSON.parse(readFileSync(DEMO_SITE_FILE, 'utf8')) as Json;
    const problems = async (edit: (site: Json) => void): Promise<string[]> => {
      const site = demo();
      edit(site);
      try {
        await importSite(getDb(), JSON.stringify(site), dirname(DEMO_SITE_FILE));
      } catch (error) {
        if (error instanceof SiteFileError) return error.problems;
        throw error;
      }
      return [];
    };
    const videoOf = (site: Json) =>
      (site.pages as { id: string; blocks: { type: string }[] }[])
        .find((p) => p.id === 'about')!
        .blocks.find((b) => b.type === 'video') as Json;

    it('refuses embed code that is not one https iframe, or too long, naming the field', async () => {
      const cases: [string, string][] = [
        [
          '<script src="https://evil.example/x.js"></script>',
          "must be the provider's embed code: one <iframe …></iframe> element and nothing else",
        ],
        ['<iframe src="http://www.youtube.com/embed/x"></iframe>', 'must have an iframe src that is an https address'],
        [`<iframe src="https://a.example/?q=${'x'.repeat(5000)}"></iframe>`, 'must be at most 4000 characters'],
      ];
      for (const [html, message] of cases) {
        const found = await problems((site) => void (videoOf(site).oembed.html = html));
        expect(found.join('\n')).toContain(`pages[1] (id 'about', "About").blocks[3].oembed.html`);
        expect(found.join('\n')).toContain(message);
      }
      expect((await problems((site) => void (videoOf(site).url = 'javascript:alert(1)'))).join('\n')).toMatch(
        /blocks\[3\]\.url.*must be an https address/,
      );
    });

    it('refuses an audio address that is not https, an event ending before it starts, an unknown network', async () => {
      const audio = await problems(
        (site) =>
          void ((site.products as { id: string; audio?: unknown }[]).find((p) => p.id === 'brewing-guide')!.audio = {
            url: 'http://a.example/a.mp3',
          }),
      );
      expect(audio.join('\n')).toMatch(/audio\.url.*must be an https address/);
      const event = await problems(
        (site) =>
          void ((site.posts as { id: string; event: { end: string } }[]).find(
            (p) => p.id === 'studio-open-day',
          )!.event.end = '2026-06-12T10:00:00-04:00'),
      );
      expect(event.join('\n')).toMatch(/event\.end.*must not end before it starts/);
      const social = await problems(
        (site) => void (site.website.social.profiles = [{ network: 'myspace', url: 'https://myspace.com/x' }]),
      );
      expect(social.join('\n')).toContain('website.social.profiles[0].network');
    });
  }));
