/**
 * A site's design (`website.design` in the site file): its colours, fonts and button shape, and the rules they obey.
 * Pure: the WCAG contrast of the colours the storefront shows together, the fixed list of fonts, and the CSS
 * custom properties a page sets from a design (src/ui/styles.css reads them, with today's look as fallbacks).
 */
import { parseHex, rgbToHex, type Rgb } from './colour';

/** The design's colours, each '#rgb' or '#rrggbb'; an absent one keeps the storefront's own. */
export interface DesignColours {
  background?: string;
  text?: string;
  accent?: string;
  buttonBackground?: string;
  buttonText?: string;
}
export type DesignColourName = keyof DesignColours;

/** Today's storefront colours (src/ui/styles.css :root): what an absent colour is. */
export const DEFAULT_COLOURS: Required<DesignColours> = {
  background: '#ffffff',
  text: '#1d1d1f',
  accent: '#1f4d3a',
  // A primary button is the accent with white text unless the design says otherwise.
  buttonBackground: '#1f4d3a',
  buttonText: '#ffffff',
};

/** How each colour is named in a refusal ('button text #… on button background #…'). */
const COLOUR_WORDS: Record<DesignColourName, string> = {
  background: 'background',
  text: 'text',
  accent: 'accent',
  buttonBackground: 'button background',
  buttonText: 'button text',
};

/**
 * The fonts that ship with Vitrine (src/ui/fonts: WOFF2, the latin subset, SIL Open Font License 1.1), served from the
 * site's own origin: the Content-Security-Policy stays 'self' and no font host learns of a visit. Each is its family
 * followed by a system stack of the same kind, shown until the file arrives (`font-display: swap`) and wherever it
 * cannot load.
 */
export const WEB_FONTS = {
  inter: { family: 'Inter', file: 'inter', kind: 'sans-serif' },
  'dm-sans': { family: 'DM Sans', file: 'dm-sans', kind: 'sans-serif' },
  'source-serif': { family: 'Source Serif 4', file: 'source-serif-4', kind: 'serif' },
  lora: { family: 'Lora', file: 'lora', kind: 'serif' },
  'playfair-display': { family: 'Playfair Display', file: 'playfair-display', kind: 'serif' },
} as const;
export type WebFontName = keyof typeof WEB_FONTS;

const SYSTEM_SANS = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const SYSTEM_SERIF = "'Iowan Old Style', 'Palatino Linotype', Palatino, Georgia, serif";

/**
 * The font stacks a design chooses from: system stacks (nothing is downloaded), each looking alike on every operating
 * system, and the fonts that ship with Vitrine (WEB_FONTS). 'old-style' is today's heading font, 'system-ui' today's
 * body font.
 */
export const FONT_STACKS = {
  'system-ui': SYSTEM_SANS,
  'old-style': SYSTEM_SERIF,
  transitional: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, Georgia, serif",
  humanist: "Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', source-sans-pro, sans-serif",
  geometric: "Avenir, Montserrat, Corbel, 'URW Gothic', source-sans-pro, sans-serif",
  monospace: "ui-monospace, 'Cascadia Code', 'Source Code Pro', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
  inter: `'Inter', ${SYSTEM_SANS}`,
  'dm-sans': `'DM Sans', ${SYSTEM_SANS}`,
  'source-serif': `'Source Serif 4', ${SYSTEM_SERIF}`,
  lora: `'Lora', ${SYSTEM_SERIF}`,
  'playfair-display': `'Playfair Display', ${SYSTEM_SERIF}`,
} as const;
export type FontName = keyof typeof FONT_STACKS;
export const FONT_NAMES = Object.keys(FONT_STACKS) as FontName[];
export const DEFAULT_HEADING_FONT: FontName = 'old-style';
export const DEFAULT_BODY_FONT: FontName = 'system-ui';

export const isWebFont = (name: string): name is WebFontName => Object.hasOwn(WEB_FONTS, name);

/**
 * The weights the storefront draws (src/ui/styles.css): headings in 600 (the shop's name asks 700 and gets 600, never
 * a synthesised bold), text in 400 with 600 for labels, prices and buttons. Only these files are sent.
 */
export const HEADING_FONT_WEIGHTS = [600] as const;
export const BODY_FONT_WEIGHTS = [400, 600] as const;
export type FontWeight = 400 | 600;

/** A shipped font file's name without its extension ('inter-latin-400-normal'); src/ui/fonts holds it as .woff2. */
export const webFontFile = (name: WebFontName, weight: FontWeight): string =>
  `${WEB_FONTS[name].file}-latin-${weight}-normal`;

/** Every shipped font file (the server serves these and no other). */
export const WEB_FONT_FILES: readonly string[] = (Object.keys(WEB_FONTS) as WebFontName[]).flatMap((name) =>
  ([400, 600] as const).map((weight) => webFontFile(name, weight)),
);

/** The latin subset's characters (as the files were cut): a page whose text is all outside it loads no file. */
const LATIN_RANGE =
  'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD';

/** A font file of the design and what it is for: the files a page needs, the first ones worth preloading. */
export interface DesignFontFile {
  font: WebFontName;
  weight: FontWeight;
  file: string;
}

/**
 * The shipped font files a design's fonts need, heading's first: the heading font in 600, the body font in 400 and
 * 600 (once each when both are the same font). System stacks need none. Pages preload them all: each is drawn in the
 * first screen of most pages (the body's 600 in labels, prices and buttons), and a file left to the stylesheet is
 * asked for only once the layout needs it, a round trip after the stylesheet — measured with Lighthouse
 * (bench/lighthouse.ts, the second design): with the body's 600 not preloaded the first paint waited for it in half
 * the runs (FCP 1.06 s against 0.76 s); preloaded, FCP was 0.76–0.86 s in every run.
 */
export function designFontFiles(design: Pick<DesignStyle, 'headingFont' | 'bodyFont'> | undefined): DesignFontFile[] {
  const files = new Map<string, DesignFontFile>();
  const add = (name: string | undefined, weights: readonly FontWeight[]) => {
    if (!name || !isWebFont(name)) return;
    for (const weight of weights)
      files.set(webFontFile(name, weight), { font: name, weight, file: webFontFile(name, weight) });
  };
  add(design?.headingFont, HEADING_FONT_WEIGHTS);
  add(design?.bodyFont, BODY_FONT_WEIGHTS);
  return [...files.values()];
}

/** Where the storefront serves a font file (the server answers a content-hashed name: src/render/fonts.ts). */
export type FontUrl = (file: string) => string;
const plainFontUrl: FontUrl = (file) => `/fonts/${file}.woff2`;

/** The `@font-face` rules of a design's shipped fonts ('' for system stacks). URLs come from `url` (no quote in them). */
export function fontFaceCss(
  design: Pick<DesignStyle, 'headingFont' | 'bodyFont'> | undefined,
  url: FontUrl = plainFontUrl,
): string {
  return designFontFiles(design)
    .map(({ font, weight, file }) => {
      const href = url(file);
      if (!/^[A-Za-z0-9/._-]+$/.test(href)) return '';
      return `@font-face{font-family:'${WEB_FONTS[font].family}';font-style:normal;font-weight:${weight};font-display:swap;src:url(${href}) format('woff2');unicode-range:${LATIN_RANGE}}`;
    })
    .join('');
}

/** Button corners: square, slightly rounded, or round ends (today's). */
export const BUTTON_SHAPES = ['square', 'rounded', 'pill'] as const;
export type ButtonShape = (typeof BUTTON_SHAPES)[number];
export const DEFAULT_BUTTON_SHAPE: ButtonShape = 'pill';
const BUTTON_RADIUS: Record<ButtonShape, string> = { square: '0', rounded: '8px', pill: '999px' };

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

/** WCAG 2 relative luminance of an sRGB colour. */
export const relativeLuminance = ({ r, g, b }: Rgb): number => {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};

/** WCAG 2 contrast ratio of two colours, 1 (same) to 21 (black on white), whichever is lighter. */
export const contrastRatio = (a: Rgb, b: Rgb): number => {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
};

/**
 * A ratio as written in a message, 2 decimals; never rounded up to the minimum it misses (4.497 is '4.49', not '4.50').
 */
export const formatRatio = (ratio: number, min = MIN_CONTRAST): string => {
  const rounded = Math.round(ratio * 100) / 100;
  return (rounded >= min && ratio < min ? Math.floor(ratio * 100) / 100 : rounded).toFixed(2);
};

/** The colours of a design with today's in place of those it leaves out; the button's background follows the accent. */
export const effectiveColours = (colours: DesignColours = {}): Required<DesignColours> => ({
  background: colours.background ?? DEFAULT_COLOURS.background,
  text: colours.text ?? DEFAULT_COLOURS.text,
  accent: colours.accent ?? DEFAULT_COLOURS.accent,
  buttonBackground: colours.buttonBackground ?? colours.accent ?? DEFAULT_COLOURS.buttonBackground,
  buttonText: colours.buttonText ?? DEFAULT_COLOURS.buttonText,
});

/** The pairs the storefront shows together: [foreground, background]. */
export const CONTRAST_PAIRS: ReadonlyArray<readonly [DesignColourName, DesignColourName]> = [
  ['text', 'background'],
  ['buttonText', 'buttonBackground'],
  // Links (and hashtags) are drawn in the accent on the page's background.
  ['accent', 'background'],
];

/**
 * The problems of a design's colours: one message per pair shown together whose contrast is below WCAG AA, e.g.
 * 'text #777777 on background #ffffff has contrast 4.48:1; at least 4.5:1 is needed'. Colours that are not hex are
 * left to the schema (no message here).
 */
export function contrastProblems(colours: DesignColours = {}): string[] {
  const all = effectiveColours(colours);
  const problems: string[] = [];
  for (const [fore, back] of CONTRAST_PAIRS) {
    const [f, b] = [parseHex(all[fore]), parseHex(all[back])];
    if (!f || !b) continue;
    const ratio = contrastRatio(f, b);
    if (ratio < MIN_CONTRAST)
      problems.push(
        `${COLOUR_WORDS[fore]} ${rgbToHex(f)} on ${COLOUR_WORDS[back]} ${rgbToHex(b)} has contrast ${formatRatio(ratio)}:1; at least ${MIN_CONTRAST}:1 is needed`,
      );
  }
  return problems;
}

/** What of a design the page's CSS custom properties carry. */
export interface DesignStyle {
  colours?: DesignColours;
  headingFont?: FontName;
  bodyFont?: FontName;
  buttonShape?: ButtonShape;
}

/**
 * The CSS custom properties a design sets (`--site-…`), as one `:root{…}` rule after the `@font-face` rules of its
 * shipped fonts, or '' when the design changes nothing (the page keeps today's look and needs no style element). Only
 * values from the fixed lists, hex colours and the font files' URLs (`fontUrl`, checked) are written, so the rule
 * cannot carry anything else.
 */
export function designCss(design: DesignStyle | undefined, fontUrl: FontUrl = plainFontUrl): string {
  if (!design) return '';
  const props: string[] = [];
  const colour = (name: string, value: string) => {
    const rgb = parseHex(value);
    if (rgb) props.push(`--site-${name}:${rgbToHex(rgb)}`);
  };
  // A design with colours sets all five, the ones it leaves out as the contrast check read them (today's; the button's
  // background follows the accent), so whatever the storefront draws on the background is what was checked.
  if (design.colours && Object.values(design.colours).some((v) => v !== undefined)) {
    const c = effectiveColours(design.colours);
    colour('background', c.background);
    colour('text', c.text);
    colour('accent', c.accent);
    colour('button-background', c.buttonBackground);
    colour('button-text', c.buttonText);
  }
  if (design.headingFont && design.headingFont !== DEFAULT_HEADING_FONT && design.headingFont in FONT_STACKS)
    props.push(`--site-heading-font:${FONT_STACKS[design.headingFont]}`);
  if (design.bodyFont && design.bodyFont !== DEFAULT_BODY_FONT && design.bodyFont in FONT_STACKS)
    props.push(`--site-body-font:${FONT_STACKS[design.bodyFont]}`);
  if (design.buttonShape && design.buttonShape !== DEFAULT_BUTTON_SHAPE && design.buttonShape in BUTTON_RADIUS)
    props.push(`--site-button-radius:${BUTTON_RADIUS[design.buttonShape]}`);
  return fontFaceCss(design, fontUrl) + (props.length ? `:root{${props.join(';')}}` : '');
}
