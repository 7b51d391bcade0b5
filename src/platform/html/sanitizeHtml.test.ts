import { describe, expect, it } from 'vitest';
import { safeHref, sanitizeHtml } from './sanitizeHtml';

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'a',
  'ul',
  'ol',
  'li',
  'h2',
  'h3',
  'h4',
  'span',
  'blockquote',
];

/**
 * Reads the output without trusting the sanitizer: every tag is an allowed one, written as `<name>`, `<name />` or
 * `</name>`; the only attributes are a link's href (a safe one) and rel, double-quoted; no other `<` or `>` is left
 * (text carries them as `&lt;` and `&gt;`).
 */
function expectOnlyAllowedMarkup(html: string): void {
  const tag = /<(\/?)([a-z0-9]+)((?:\s[a-z]+="[^"<>]*")*)\s*\/?>/g;
  for (const [, , name, attributes] of html.matchAll(tag)) {
    expect(ALLOWED_TAGS, html).toContain(name);
    for (const [, attribute, value] of (attributes ?? '').matchAll(/\s([a-z]+)="([^"]*)"/g)) {
      expect(name, html).toBe('a');
      expect(['href', 'rel'], html).toContain(attribute);
      if (attribute === 'href') expect(value, html).toMatch(/^(https?:|mailto:|tel:|\/(?![/\\])|#)/i);
      if (attribute === 'rel') expect(value, html).toBe('noopener noreferrer');
    }
  }
  expect(html.replace(tag, ''), html).not.toMatch(/[<>]/);
}

const cases: [name: string, input: string, output: string][] = [
  // Nested and malformed tags: never reassembled into a tag that was not there.
  ['a script split by a script', '<scr<script>ipt>alert(1)</scr</script>ipt>', 'ipt&gt;alert(1)ipt&gt;'],
  ['a script inside an allowed tag', '<p>a<script>alert(1)</script>b</p>', '<p>ab</p>'],
  ['a script split by a comment', '<scr<!-- -->ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
  ['a tag left open', '<p>Hi <strong>there', '<p>Hi <strong>there</strong></p>'],
  // A stray </p> is an empty paragraph to a browser too; a stray </strong> is nothing.
  ['stray closing tags', 'a</p>b</strong>c', 'a<p></p>bc'],
  ['a tag without its >', '<p>a<img src=x onerror=alert(1) ', '<p>a</p>'],
  ['a script in upper case', '<SCRIPT>alert(1)</SCRIPT>ok', 'ok'],
  ['a script closed with a space', '<script>alert(1)</script >ok', 'ok'],
  // javascript: in odd cases.
  ['javascript:', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
  ['JaVaScRiPt:', '<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
  ['a tab entity in the scheme', '<a href="jav&#x09;ascript:alert(1)">x</a>', '<a>x</a>'],
  ['a newline entity in the scheme', '<a href="java&#10;script:alert(1)">x</a>', '<a>x</a>'],
  ['a raw tab and newline in the scheme', '<a href="java\tscr\nipt:alert(1)">x</a>', '<a>x</a>'],
  ['leading spaces and a NUL', '<a href=" \u0000javascript:alert(1)">x</a>', '<a>x</a>'],
  ['&#106;avascript:', '<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
  ['zero-padded entities, no semicolons', '<a href="&#0000106&#0000097vascript:alert(1)">x</a>', '<a>x</a>'],
  ['hex entities and &colon;', '<a href="&#x6A;avascript&colon;alert(1)">x</a>', '<a>x</a>'],
  ['vbscript:', '<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
  ['data: HTML', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', '<a>x</a>'],
  ['data: in capitals', '<a href="DATA:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
  ['another host by //', '<a href="//evil.example/">x</a>', '<a>x</a>'],
  ['another host by /\\', '<a href="/\\evil.example/">x</a>', '<a>x</a>'],
  ['another host by a tab after /', '<a href="/\t/evil.example/">x</a>', '<a>x</a>'],
  ['a relative path (not a site path)', '<a href="thanks">x</a>', '<a>x</a>'],
  ['an empty href', '<a href="">x</a>', '<a>x</a>'],
  // SVG and MathML: dropped with everything in them.
  ['<svg><script>', '<svg><script>alert(1)</script></svg>ok', 'ok'],
  ['<svg onload>', '<svg onload=alert(1)>', ''],
  ['<svg> with an <a> to javascript:', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>', ''],
  ['an SVG <style> around an image', '<svg><style><img src=x onerror=alert(1)></style></svg>ok', 'ok'],
  ['<math>', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', ''],
  ['<math> with a link', '<math href="javascript:alert(1)"><mi>x</mi></math>ok', 'ok'],
  // Images, handlers, styles, frames.
  ['<img src=x onerror>', '<img src=x onerror=alert(1)>ok', 'ok'],
  ['a handler on an allowed tag', '<p onclick="alert(1)" onmouseover=alert(1)>x</p>', '<p>x</p>'],
  ['a handler on a link', '<a href="/shop" onclick="alert(1)">x</a>', '<a href="/shop">x</a>'],
  ['<style>', '<style>body{background:url(javascript:alert(1))}</style>ok', 'ok'],
  ['a style attribute', '<span style="background:url(javascript:alert(1))">x</span>', '<span>x</span>'],
  ['<iframe>', '<iframe src="javascript:alert(1)"><p>x</p></iframe>ok', 'ok'],
  ['<iframe srcdoc>', '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>ok', 'ok'],
  ['<object> and <embed>', '<object data="x.swf"><embed src="x.swf"></object>ok', 'ok'],
  ['an <embed> (no closing tag) drops nothing after it', '<p>a<embed src="x.swf">b</p>', '<p>ab</p>'],
  ['<noscript> hiding a tag in an attribute', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">', ''],
  ['<template>', '<template><img src=x onerror=alert(1)></template>ok', 'ok'],
  ['<form> and <button>', '<form action="javascript:alert(1)"><button formaction="x">Go</button></form>', 'Go'],
  ['<meta refresh>', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">ok', 'ok'],
  ['<base>', '<base href="https://evil.example/">ok', 'ok'],
  // Comments and CDATA: dropped.
  ['a comment', '<!-- <script>alert(1)</script> -->ok', 'ok'],
  ['a comment left open', 'ok<!-- <img src=x onerror=alert(1)>', 'ok'],
  ['a conditional comment', '<!--[if IE]><script>alert(1)</script><![endif]-->ok', 'ok'],
  ['CDATA', '<![CDATA[<script>alert(1)</script>]]>ok', 'ok'],
  // Attributes without quotes.
  ['an unquoted href with a handler', '<a href=/shop onclick=alert(1)>x</a>', '<a href="/shop">x</a>'],
  ['an unquoted javascript: href', '<a href=javascript:alert(1)>x</a>', '<a>x</a>'],
  ['a backtick-quoted href', '<a href=`javascript:alert(1)`>x</a>', '<a>x</a>'],
  ['an attribute closing the tag early', '<a title=x" onclick="alert(1)" href="/shop">x</a>', '<a href="/shop">x</a>'],
  // Entity-encoded markup stays text.
  ['an entity-encoded script', '&lt;script&gt;alert(1)&lt;/script&gt;', '&lt;script&gt;alert(1)&lt;/script&gt;'],
  ['an entity-encoded image', '&#60;img src=x onerror=alert(1)&#62;', '&lt;img src=x onerror=alert(1)&gt;'],
  ['a bare < and &', 'a < b && c > d', 'a &lt; b &amp;&amp; c &gt; d'],
];

describe('sanitizeHtml: the known bypasses', () => {
  it.each(cases)('%s', (_name, input, output) => {
    const clean = sanitizeHtml(input);
    expect(clean).toBe(output);
    expectOnlyAllowedMarkup(clean);
  });

  it('every bypass again inside allowed markup, and all of them at once', () => {
    const all = cases.map(([, input]) => input).join('');
    for (const html of [...cases.map(([, input]) => `<p><strong>${input}</strong></p>`), all]) {
      const clean = sanitizeHtml(html);
      expectOnlyAllowedMarkup(clean);
    }
  });
});

describe('sanitizeHtml: what is kept', () => {
  it('text tags, lists and headings, without their attributes', () => {
    expect(
      sanitizeHtml(
        '<h2 id="t">Thanks</h2><p class="lead">We <strong>got</strong> it: <em>soon</em> <b>b</b> <i>i</i> <u>u</u>.<br>Next</p>' +
          '<ul><li>One</li></ul><ol><li>Two</li></ol><h3>h3</h3><h4>h4</h4><blockquote>q</blockquote><span>s</span>',
      ),
    ).toBe(
      '<h2>Thanks</h2><p>We <strong>got</strong> it: <em>soon</em> <b>b</b> <i>i</i> <u>u</u>.<br />Next</p>' +
        '<ul><li>One</li></ul><ol><li>Two</li></ol><h3>h3</h3><h4>h4</h4><blockquote>q</blockquote><span>s</span>',
    );
  });

  it('links to http(s) (opened without opener or referrer), mailto, tel, site paths and fragments', () => {
    expect(
      sanitizeHtml(
        '<a href="https://example.com/a?b=1&amp;c=2" rel="opener" target="_blank">w</a>' +
          '<a href="HTTP://example.com">h</a><a href="mailto:hello@example.com">m</a><a href="tel:+15551234">t</a>' +
          '<a href="/journal?x=1">j</a><a href="#top">f</a>',
      ),
    ).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer">w</a>' +
        '<a href="HTTP://example.com" rel="noopener noreferrer">h</a><a href="mailto:hello@example.com">m</a>' +
        '<a href="tel:+15551234">t</a><a href="/journal?x=1">j</a><a href="#top">f</a>',
    );
  });

  it('other tags are dropped and their text kept, escaped; entities are written as what they mean', () => {
    expect(sanitizeHtml('<div><h1>Big</h1><table><tr><td>cell</td></tr></table></div>')).toBe('Bigcell');
    expect(sanitizeHtml('Fish &amp; chips &eacute; &nbsp;"q"')).toBe('Fish &amp; chips é \u00a0"q"');
  });

  it('the same input gives the same output (the kept result), and many inputs stay correct', () => {
    const inputs = Array.from({ length: 200 }, (_, i) => `<p onclick="x">${i}</p><script>${i}</script>`);
    for (let round = 0; round < 2; round++) {
      for (const [i, html] of inputs.entries()) expect(sanitizeHtml(html)).toBe(`<p>${i}</p>`);
    }
  });

  it('deeply nested markup comes back balanced', () => {
    const clean = sanitizeHtml('<blockquote>'.repeat(5_000) + 'deep' + '<svg>'.repeat(5_000));
    expect(clean).toBe('<blockquote>'.repeat(5_000) + 'deep' + '</blockquote>'.repeat(5_000));
  });
});

describe('safeHref', () => {
  it('judges a link as the browser reads it: control characters removed first, then the allow-list', () => {
    expect(safeHref(' https://exa\tmple.com/\n ')).toBe('https://example.com/');
    expect(safeHref('java\u0000script:alert(1)')).toBeNull();
    expect(safeHref('/\n/evil.example')).toBeNull();
    expect(safeHref('/thanks')).toBe('/thanks');
    expect(safeHref('ftp://example.com')).toBeNull();
  });
});
