import { describe, expect, it } from 'vitest';
import { autoplayUrl, embedFromVideoUrl, parseVideoEmbed, VIDEO_EMBED_MAX_LENGTH } from './videoEmbed';

const YOUTUBE =
  '<iframe width="200" height="113" src="https://www.youtube.com/embed/abc123?feature=oembed&amp;rel=0" frameborder="0" ' +
  'allow="accelerometer; autoplay; clipboard-write; encrypted-media" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen title="Throwing a bowl"></iframe>';

describe('parseVideoEmbed (the provider’s oEmbed HTML: one iframe with an https src)', () => {
  it('reads the player address, its origin, title and shape from a YouTube embed code', () => {
    expect(parseVideoEmbed(YOUTUBE)).toEqual({
      ok: true,
      value: {
        src: 'https://www.youtube.com/embed/abc123?feature=oembed&rel=0',
        origin: 'https://www.youtube.com',
        title: 'Throwing a bowl',
        aspectRatio: 200 / 113,
      },
    });
  });

  it('takes single-quoted and bare attributes, surrounding space, and defaults to 16:9 without a size', () => {
    const result = parseVideoEmbed("  <IFRAME src='https://player.vimeo.com/video/1' allowfullscreen></IFRAME>\n");
    expect(result).toEqual({
      ok: true,
      value: { src: 'https://player.vimeo.com/video/1', origin: 'https://player.vimeo.com', aspectRatio: 16 / 9 },
    });
  });

  it('refuses anything but one iframe: scripts, extra elements, text, two iframes', () => {
    for (const html of [
      '<script src="https://x.example/a.js"></script>',
      `${YOUTUBE}<script>alert(1)</script>`,
      `<div>${YOUTUBE}</div>`,
      `${YOUTUBE}${YOUTUBE}`,
      'just text',
      '<iframe src="https://a.example/"><p>fallback</p></iframe>',
      '',
    ]) {
      expect(parseVideoEmbed(html)).toEqual({ ok: false, error: 'not-one-iframe' });
    }
  });

  it('needs an https src without credentials', () => {
    expect(parseVideoEmbed('<iframe width="1"></iframe>')).toEqual({ ok: false, error: 'no-src' });
    expect(parseVideoEmbed('<iframe src=""></iframe>')).toEqual({ ok: false, error: 'no-src' });
    for (const src of [
      'http://www.youtube.com/embed/1',
      'javascript:alert(1)',
      'data:text/html,hi',
      '//www.youtube.com/embed/1',
      'https://user:pw@x.example/',
      'not a url',
    ]) {
      expect(parseVideoEmbed(`<iframe src="${src}"></iframe>`)).toEqual({ ok: false, error: 'src-not-https' });
    }
  });

  it('refuses embed codes over the size limit', () => {
    const long = `<iframe src="https://a.example/?q=${'x'.repeat(VIDEO_EMBED_MAX_LENGTH)}"></iframe>`;
    expect(parseVideoEmbed(long)).toEqual({ ok: false, error: 'too-long' });
  });

  it('ignores a bad size and keeps the first of repeated attributes', () => {
    const result = parseVideoEmbed(
      '<iframe src="https://a.example/1" src="https://b.example/" width="wide" height="0"></iframe>',
    );
    expect(result).toEqual({
      ok: true,
      value: { src: 'https://a.example/1', origin: 'https://a.example', aspectRatio: 16 / 9 },
    });
  });
});

describe('autoplayUrl', () => {
  it('asks the player to start (the visitor pressed play), keeping its other parameters', () => {
    expect(autoplayUrl('https://www.youtube.com/embed/abc?feature=oembed')).toBe(
      'https://www.youtube.com/embed/abc?feature=oembed&autoplay=1',
    );
    expect(autoplayUrl('https://player.vimeo.com/video/1?autoplay=0')).toBe(
      'https://player.vimeo.com/video/1?autoplay=1',
    );
  });
});

describe('embedFromVideoUrl', () => {
  it.each([
    [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'YouTube',
    ],
    ['https://youtu.be/dQw4w9WgXcQ?si=x', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'YouTube'],
    ['https://m.youtube.com/shorts/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'YouTube'],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871', 'Vimeo'],
    ['https://vimeo.com/channels/staffpicks/76979871', 'https://player.vimeo.com/video/76979871', 'Vimeo'],
  ])('makes the player of %s', (address, src, providerName) => {
    const made = embedFromVideoUrl(address, 'Our "studio" & kiln');
    expect(made?.providerName).toBe(providerName);
    const parsed = parseVideoEmbed(made!.html);
    expect(parsed).toEqual({
      ok: true,
      value: { src, origin: new URL(src).origin, title: 'Our "studio" & kiln', aspectRatio: 560 / 315 },
    });
  });

  it('makes nothing for other providers, a channel, a short id or no address', () => {
    for (const address of [
      'https://www.dailymotion.com/video/x8abc',
      'https://www.youtube.com/@vitrine',
      'https://www.youtube.com/watch?v=short',
      'https://vimeo.com/staffpicks',
      'not an address',
      'ftp://youtu.be/dQw4w9WgXcQ',
    ])
      expect(embedFromVideoUrl(address, 'x'), address).toBeUndefined();
  });
});
