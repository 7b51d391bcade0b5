import { describe, expect, it } from 'vitest';
import {
  contrastProblems,
  contrastRatio,
  DEFAULT_COLOURS,
  designCss,
  designFontFiles,
  effectiveColours,
  WEB_FONT_FILES,
  FONT_STACKS,
  formatRatio,
  relativeLuminance,
} from './design';
import { parseHex } from './colour';

const rgb = (hex: string) => parseHex(hex)!;

describe('WCAG contrast', () => {
  it('is 21:1 for black on white and 1:1 for a colour on itself, either way round', () => {
    expect(contrastRatio(rgb('#000'), rgb('#fff'))).toBeCloseTo(21, 5);
    expect(contrastRatio(rgb('#fff'), rgb('#000'))).toBeCloseTo(21, 5);
    expect(contrastRatio(rgb('#1f4d3a'), rgb('#1f4d3a'))).toBe(1);
    expect(relativeLuminance(rgb('#ffffff'))).toBe(1);
    expect(relativeLuminance(rgb('#020202'))).toBeCloseTo(0.000607, 6);
  });

  it('writes a ratio with 2 decimals, never rounded up to the minimum it misses', () => {
    expect(formatRatio(contrastRatio(rgb('#777777'), rgb('#ffffff')))).toBe('4.48');
    expect(formatRatio(4.497)).toBe('4.49');
    expect(formatRatio(4.5)).toBe('4.50');
    expect(formatRatio(12.345678)).toBe('12.35');
  });

  it("passes today's colours", () => {
    expect(contrastProblems()).toEqual([]);
    expect(contrastProblems(DEFAULT_COLOURS)).toEqual([]);
  });

  it('names the pair and its ratio when text is too light', () => {
    expect(contrastProblems({ text: '#777777' })).toEqual([
      'text #777777 on background #ffffff has contrast 4.48:1; at least 4.5:1 is needed',
    ]);
    // #767676 is the lightest grey that passes on white.
    expect(contrastProblems({ text: '#767676' })).toEqual([]);
  });

  it('checks button text on the button background, which follows the accent when not given', () => {
    expect(contrastProblems({ accent: '#0000ee', buttonText: '#fff' })).toEqual([]);
    expect(contrastProblems({ accent: '#0000ee', buttonText: '#0000aa' })).toEqual([
      'button text #0000aa on button background #0000ee has contrast 1.41:1; at least 4.5:1 is needed',
    ]);
    expect(contrastProblems({ buttonBackground: '#ffff00' })[0]).toMatch(
      /^button text #ffffff on button background #ffff00 has contrast 1\.07:1/,
    );
  });

  it('checks the accent (links) on the background, and reports every failing pair', () => {
    expect(contrastProblems({ background: '#222', text: '#eee', accent: '#333', buttonText: '#fff' })).toEqual([
      'accent #333333 on background #222222 has contrast 1.26:1; at least 4.5:1 is needed',
    ]);
    expect(contrastProblems({ background: '#000', text: '#111', accent: '#111' })).toHaveLength(2);
  });

  it('leaves colours that are not hex to the schema', () => {
    expect(contrastProblems({ text: 'red' })).toEqual([]);
  });

  it('fills in the colours a design leaves out', () => {
    expect(effectiveColours({ accent: '#123456' })).toEqual({
      ...DEFAULT_COLOURS,
      accent: '#123456',
      buttonBackground: '#123456',
    });
    expect(effectiveColours({ accent: '#123456', buttonBackground: '#000' }).buttonBackground).toBe('#000');
  });
});

describe('designCss', () => {
  it("is empty when the design keeps today's look", () => {
    expect(designCss(undefined)).toBe('');
    expect(designCss({})).toBe('');
    expect(designCss({ headingFont: 'old-style', bodyFont: 'system-ui', buttonShape: 'pill', colours: {} })).toBe('');
  });

  it('sets a custom property per value it changes, colours normalised', () => {
    expect(
      designCss({
        colours: { background: '#FFF8E7', text: '#222', accent: '#5b2a86', buttonText: '#fff' },
        headingFont: 'geometric',
        bodyFont: 'humanist',
        buttonShape: 'square',
      }),
    ).toBe(
      `:root{--site-background:#fff8e7;--site-text:#222222;--site-accent:#5b2a86;--site-button-background:#5b2a86;--site-button-text:#ffffff;--site-heading-font:${FONT_STACKS.geometric};--site-body-font:${FONT_STACKS.humanist};--site-button-radius:0}`,
    );
    expect(designCss({ buttonShape: 'rounded' })).toBe(':root{--site-button-radius:8px}');
    expect(designCss({ colours: { buttonBackground: '#000' } })).toBe(
      ':root{--site-background:#ffffff;--site-text:#1d1d1f;--site-accent:#1f4d3a;--site-button-background:#000000;--site-button-text:#ffffff}',
    );
  });

  it('writes nothing that is not a hex colour or a listed value', () => {
    const forged = {
      colours: { text: 'red;}body{display:none' },
      headingFont: 'x' as never,
      buttonShape: 'y' as never,
    };
    expect(designCss(forged)).toBe(
      ':root{--site-background:#ffffff;--site-accent:#1f4d3a;--site-button-background:#1f4d3a;--site-button-text:#ffffff}',
    );
    expect(designCss({ colours: { accent: undefined } })).toBe('');
  });
});

describe('the fonts that ship with Vitrine', () => {
  it('sends only the chosen fonts, in the weights the storefront draws: headings 600, text 400 and 600', () => {
    expect(designFontFiles({ headingFont: 'old-style', bodyFont: 'system-ui' })).toEqual([]);
    expect(designFontFiles({ headingFont: 'playfair-display', bodyFont: 'inter' }).map((f) => f.file)).toEqual([
      'playfair-display-latin-600-normal',
      'inter-latin-400-normal',
      'inter-latin-600-normal',
    ]);
    // One font for both: each file once.
    expect(designFontFiles({ headingFont: 'lora', bodyFont: 'lora' }).map((f) => f.file)).toEqual([
      'lora-latin-600-normal',
      'lora-latin-400-normal',
    ]);
    expect(WEB_FONT_FILES).toHaveLength(10);
  });

  it('writes @font-face rules with swap and the latin range before the custom properties', () => {
    const css = designCss({ headingFont: 'dm-sans', bodyFont: 'system-ui' }, (file) => `/fonts/${file}.abc.woff2`);
    expect(css).toBe(
      "@font-face{font-family:'DM Sans';font-style:normal;font-weight:600;font-display:swap;src:url(/fonts/dm-sans-latin-600-normal.abc.woff2) format('woff2');unicode-range:U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD}" +
        `:root{--site-heading-font:${FONT_STACKS['dm-sans']}}`,
    );
    expect(FONT_STACKS['dm-sans']).toMatch(/^'DM Sans', ui-sans-serif, /);
    // A URL that could end the rule is not written.
    expect(designCss({ headingFont: 'lora' }, () => '/x);}body{display:none')).toBe(
      `:root{--site-heading-font:${FONT_STACKS.lora}}`,
    );
  });
});
