import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it('turns the five characters that could start markup or end an attribute into references', () => {
    expect(escapeHtml(`<script>alert("x")</script>`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(escapeHtml(`' onmouseover='x`)).toBe('&#39; onmouseover=&#39;x');
    expect(escapeHtml('Tom & Jerry')).toBe('Tom &amp; Jerry');
  });

  it('escapes an ampersand even when it already starts a reference (the text is shown as written)', () => {
    expect(escapeHtml('&amp; &#39;')).toBe('&amp;amp; &amp;#39;');
  });

  it('leaves every other character as it is', () => {
    expect(escapeHtml('Café — 100 % / `x` = {y}\n')).toBe('Café — 100 % / `x` = {y}\n');
    expect(escapeHtml('')).toBe('');
  });
});
