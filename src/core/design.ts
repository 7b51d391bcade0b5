/**
 * A site's design (`website.design` in the site file): its colours, fonts and button shape, and the rules they obey.
 * Pure: the WCAG contrast of the colours the storefront shows together, the fixed list of font stacks, and the CSS
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
 * The font stacks a design chooses from: system fonts only (nothing is downloaded; the Content-Security-Policy stays
 * 'self'), each a stack that looks alike on every operating system. 'old-style' is today's heading font, 'system-ui'
 * today's body font.
 */
export const FONT_STACKS = {
  'system-ui': "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  'old-style': "'Iowan Old Style', 'Palatino Linotype', Palatino, Georgia, serif",
  transitional: "Charter, 'Bitstream Charter', 'Sitka Text', Cambria, Georgia, serif",
  humanist: "Seravek, 'Gill Sans Nova', Ubuntu, Calibri, 'DejaVu Sans', source-sans-pro, sans-serif",
  geometric: "Avenir, Montserrat, Corbel, 'URW Gothic', source-sans-pro, sans-serif",
  monospace: "ui-monospace, 'Cascadia Code', 'Source Code Pro', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
} as const;
export type FontName = keyof typeof FONT_STACKS;
export const FONT_NAMES = Object.keys(FONT_STACKS) as FontName[];
export const DEFAULT_HEADING_FONT: FontName = 'old-style';
export const DEFAULT_BODY_FONT: FontName = 'system-ui';

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
 * The CSS custom properties a design sets (`--site-…`), as one `:root{…}` rule, or '' when the design changes nothing
 * (the page keeps today's look and needs no style element). Only values from the fixed lists and hex colours are
 * written, so the rule cannot carry anything else.
 */
export function designCss(design: DesignStyle | undefined): string {
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
  return props.length ? `:root{${props.join(';')}}` : '';
}
