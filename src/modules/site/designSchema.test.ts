import { describe, expect, it } from 'vitest';
import { designSchema, websiteSchema } from './schema';

describe('website.design in the site file', () => {
  it("is absent by default: a website without one keeps today's look", () => {
    expect(websiteSchema.parse({ id: 'shop', title: 'Shop' }).design).toBeUndefined();
  });

  it("fills in today's fonts, button shape and no footer links; leaves colours, logo, favicon and menu out", () => {
    expect(designSchema.parse({})).toEqual({
      headingFont: 'old-style',
      bodyFont: 'system-ui',
      buttonShape: 'pill',
      footerLinks: [],
    });
  });

  it('takes hex colours only, and refuses a pair without contrast with the pair and ratio', () => {
    expect(designSchema.safeParse({ colours: { text: '#1B1B3A', background: '#fff' } }).success).toBe(true);
    const bad = designSchema.safeParse({ colours: { text: 'navy' } });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['colours.text', "must be a hex colour like '#1f4d3a'"],
    ]);
    const low = designSchema.safeParse({ colours: { text: '#777777' } });
    expect(low.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['colours', 'text #777777 on background #ffffff has contrast 4.48:1; at least 4.5:1 is needed'],
    ]);
  });

  it('needs a logo with alt text, footer links to a page or an https address, fonts from the list', () => {
    const issues = (design: unknown) =>
      designSchema.safeParse(design).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues({ logo: { file: 'images/logo.png', altText: '  ' } })).toEqual([
      'logo.altText: must say what the logo says (usually the shop’s name)',
    ]);
    expect(issues({ logo: { file: '../logo.svg', altText: 'Shop' } })).toHaveLength(1);
    expect(issues({ footerLinks: [{ label: 'Terms', url: 'http://example.com' }] })).toHaveLength(1);
    expect(
      issues({
        footerLinks: [
          { label: 'Terms', url: 'https://example.com/terms' },
          { label: 'About', page: 'about' },
        ],
      }),
    ).toEqual([]);
    expect(issues({ headingFont: 'Comic Sans' })).toHaveLength(1);
  });
});
