import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitizeHtml';

describe("a form's post-submit HTML, made safe", () => {
  it('keeps the text tags, without any attribute; other tags go, their text stays, escaped', () => {
    expect(sanitizeHtml('<p class="x" onclick="y()">Hi <strong>there</strong></p>')).toBe(
      '<p>Hi <strong>there</strong></p>',
    );
    expect(sanitizeHtml('<P>x<BR/>y</br></P>')).toBe('<p>x<br>y</p>');
    expect(sanitizeHtml('<div>1 < 2 & "3" > 0</div>')).toBe('1 &lt; 2 &amp; &quot;3&quot; &gt; 0');
    expect(sanitizeHtml('<img src=x onerror=alert(1)><iframe src="https://evil.example"></iframe>ok')).toBe('ok');
  });

  it('drops scripts, styles and SVG with their contents, and comments (an unclosed one to the end)', () => {
    expect(
      sanitizeHtml('a<script>alert(1)</script>b<style>p{}</style>c<!-- x -->d<svg><script>x</script></svg>e'),
    ).toBe('abcde');
    expect(sanitizeHtml('a<!-- b')).toBe('a');
  });

  it('keeps the entities it knows and escapes a bare ampersand', () => {
    expect(sanitizeHtml('Caf&eacute; &amp; &#233; &#x41; &nosuch')).toBe('Caf&eacute; &amp; &#233; &#x41; &amp;nosuch');
  });

  it('keeps links to http(s), mailto, tel and this site; an outside page opens without this one as its opener', () => {
    expect(
      sanitizeHtml(
        '<a href="https://example.com/x">e</a><a href=\'mailto:ann@example.com\'>m</a><a href=tel:+15551234>t</a>' +
          '<a href="/shop?a=1&b=2">s</a><a href="#top">top</a>',
      ),
    ).toBe(
      '<a href="https://example.com/x" rel="noopener noreferrer">e</a><a href="mailto:ann@example.com">m</a>' +
        '<a href="tel:+15551234">t</a><a href="/shop?a=1&#38;b=2">s</a><a href="#top">top</a>',
    );
  });

  it('drops any other link target, however it is written', () => {
    const targets = [
      'javascript:alert(1)',
      'java&#x09;script:alert(1)',
      '&#106;avascript:alert(1)',
      'javascript&colon;alert(1)',
      ' JavaScript:alert(1)',
      '//evil.example',
      '/\\evil.example',
      'data:text/html,x',
    ];
    for (const href of targets) expect(sanitizeHtml(`<a href="${href}">x</a>`), href).toBe('<a>x</a>');
  });
});
