import { describe, expect, it } from 'vitest';
import { isInSiteEditor, purchaseFormTarget, SITE_EDITOR_FRAME_ATTRIBUTE } from './siteEditor';
import { ProductType } from './enums';

const element = (attributes: string[]) => ({ hasAttribute: (name: string) => attributes.includes(name) });

describe('the site editor’s frames (§2)', () => {
  it('is the editor only inside a frame element the admin marked', () => {
    expect(isInSiteEditor(null)).toBe(false);
    expect(isInSiteEditor(undefined)).toBe(false);
    expect(isInSiteEditor(element([]))).toBe(false);
    expect(isInSiteEditor(element([SITE_EDITOR_FRAME_ATTRIBUTE]))).toBe(true);
  });

  it('sends a gift card’s purchase to the top window, and nothing else', () => {
    expect(purchaseFormTarget(ProductType.GIFT_CARD)).toBe('_top');
    expect(purchaseFormTarget(ProductType.PHYSICAL)).toBeUndefined();
    expect(purchaseFormTarget(ProductType.DIGITAL)).toBeUndefined();
  });
});
