import { DEFAULT_LABELS, PRODUCT_MARK_LABELS } from '../core/labels';
import type { Website } from '../site/schema';

/** The labels a page renders with: the site's configured ones, blank values falling back to the core defaults. */
export interface UiLabels {
  addToCart: string;
  subscribe: string;
  quantity: string;
  salePrice: string;
  originalPrice: string;
  selectValue: string;
  soldOut: string;
  sale: string;
}

const pick = (value: string | undefined, fallback: string): string => (value && value.trim() !== '' ? value : fallback);

export const uiLabels = (website: Pick<Website, 'labels'>): UiLabels => ({
  addToCart: pick(website.labels.addToCart, DEFAULT_LABELS.addToCart),
  subscribe: pick(website.labels.subscribe, DEFAULT_LABELS.subscribe),
  quantity: pick(website.labels.quantity, DEFAULT_LABELS.quantity),
  salePrice: pick(website.labels.salePrice, DEFAULT_LABELS.salePrice),
  originalPrice: pick(website.labels.originalPrice, DEFAULT_LABELS.originalPrice),
  selectValue: pick(website.labels.selectValue, DEFAULT_LABELS.selectValue),
  soldOut: pick(website.labels.soldOut, PRODUCT_MARK_LABELS.soldOut),
  sale: pick(website.labels.sale, PRODUCT_MARK_LABELS.sale),
});
