import { resolveSiteLabels, type SiteLabels } from '../core/labels';
import type { Website } from '../modules/site/schema';

/** The labels a page renders with: the site's configured ones, blank values falling back to the core defaults. */
export type UiLabels = SiteLabels;

export const uiLabels = (website: Pick<Website, 'labels'>): UiLabels => resolveSiteLabels(website.labels);
