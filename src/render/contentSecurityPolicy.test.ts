import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { captchaPolicySources } from '../core/forms/captcha';
import { BASE_CONTENT_SECURITY_POLICY, contentSecurityPolicyFor } from './contentSecurityPolicy';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('contentSecurityPolicyFor', () => {
  it('allows scripts, styles, images, fonts and calls from the site only, with no inline script', () => {
    const policy = contentSecurityPolicyFor('<main><p>No styles here</p></main>');
    expect(policy).toBe(BASE_CONTENT_SECURITY_POLICY);
    const directives = Object.fromEntries(
      policy.split('; ').map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]),
    );
    expect(directives).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'font-src': "'self'",
      'connect-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'self'",
      'form-action': "'self'",
      'frame-ancestors': "'self'",
    });
  });

  it('allows each distinct inline style attribute of the page by its hash, as the browser hashes it (entities decoded)', () => {
    const html =
      '<img style="object-position:25% 33.3%" alt=""><img style="object-position:25% 33.3%" alt="">' +
      '<img style="font-family:&quot;A&amp;B&quot;" alt=""><p data-x="style=&quot;evil&quot;">style="text"</p>';
    const styleSrc = contentSecurityPolicyFor(html)
      .split('; ')
      .find((d) => d.startsWith('style-src '))!;
    expect(styleSrc).toBe(
      `style-src 'self' 'unsafe-hashes' ${hashOf('object-position:25% 33.3%')} ${hashOf('font-family:"A&B"')}`,
    );
    // Never 'unsafe-inline', and scripts stay 'self' only.
    expect(contentSecurityPolicyFor(html)).not.toContain('unsafe-inline');
    expect(contentSecurityPolicyFor(html)).toContain("script-src 'self';");
  });

  it("allows the head's design style element by its hash (no 'unsafe-hashes'), never a style element in the body", () => {
    const css = ":root{--site-accent:#5b2a86;--site-heading-font:'Iowan Old Style', serif}";
    const html = `<!doctype html><html><head><style>${css}</style></head><body><style>body{display:none}</style></body></html>`;
    const styleSrc = (h: string) =>
      contentSecurityPolicyFor(h)
        .split('; ')
        .find((d) => d.startsWith('style-src '));
    expect(styleSrc(html)).toBe(`style-src 'self' ${hashOf(css)}`);
    expect(styleSrc(html.replace('</head>', '</head><img style="object-position:1% 2%" alt="">'))).toBe(
      `style-src 'self' 'unsafe-hashes' ${hashOf(css)} ${hashOf('object-position:1% 2%')}`,
    );
    expect(styleSrc('<main><style>p{}</style></main>')).toBe("style-src 'self'");
  });

  it("adds a site's third-party CAPTCHA hosts to script-src, frame-src and connect-src only", () => {
    const html = '<img style="object-position:1% 2%" alt="">';
    const policy = contentSecurityPolicyFor(html, captchaPolicySources('turnstile'));
    expect(policy).toContain("script-src 'self' https://challenges.cloudflare.com;");
    expect(policy).toContain("frame-src 'self' https://challenges.cloudflare.com;");
    expect(policy).toContain("connect-src 'self' https://challenges.cloudflare.com;");
    expect(policy).toContain(`style-src 'self' 'unsafe-hashes' ${hashOf('object-position:1% 2%')}`);
    expect(policy.replace(/https:\/\/challenges\.cloudflare\.com/g, '')).not.toMatch(/https?:/);
    // ALTCHA: the base policy, no frame-src.
    expect(contentSecurityPolicyFor('<p>x</p>', captchaPolicySources('altcha'))).toBe(BASE_CONTENT_SECURITY_POLICY);
  });
});

describe('contentSecurityPolicyFor: media of other sites a page shows', () => {
  it("allows a video block's player origin as a frame and an audio file's origin as media, on that page only", () => {
    const html =
      '<div data-frame-src="https://www.youtube.com"></div><div data-frame-src="https://www.youtube.com"></div>' +
      '<div data-media-src="https://media.example.com:8443"></div>';
    const policy = contentSecurityPolicyFor(html);
    expect(policy).toContain("frame-src 'self' https://www.youtube.com;");
    expect(policy).toContain("media-src 'self' https://media.example.com:8443;");
    expect(policy).toContain("script-src 'self';");
    expect(contentSecurityPolicyFor('<p>no media</p>')).toBe(BASE_CONTENT_SECURITY_POLICY);
  });

  it('reads only bare https origins from the attributes, never text that looks like one', () => {
    const html =
      '<div data-frame-src="http://evil.example"></div><div data-frame-src="https://a.example/path"></div>' +
      '<div data-frame-src="https://a.example \'unsafe-inline\'"></div><p>data-frame-src=&quot;https://evil.example&quot;</p>';
    expect(contentSecurityPolicyFor(html)).toBe(BASE_CONTENT_SECURITY_POLICY);
  });

  it("merges a video's frame origin with the CAPTCHA's frame hosts", () => {
    const policy = contentSecurityPolicyFor(
      '<div data-frame-src="https://player.vimeo.com"></div>',
      captchaPolicySources('turnstile'),
    );
    expect(policy).toContain("frame-src 'self' https://challenges.cloudflare.com https://player.vimeo.com;");
  });
});
