/** A page of the site file (about, contact …) at its own path: its blocks. The home page is ./home.tsx. */
import type { Page } from '../../modules/site';
import type { BlockData } from '../../ui/Blocks';
import { ContentPage } from '../../ui/Pages';
import { loadBlockData } from '../blockData';
import { pageKind, type PageContent } from '../pageKind';

/** The page's description: its first text block. */
export const firstText = (page: Page): string => {
  const block = page.blocks.find((b) => b.type === 'text');
  return block?.type === 'text' ? block.text : '';
};

/** The view of a site-file page (shared with the home page). */
export const contentPageView = (page: Page, blocks: BlockData, title: string): PageContent => ({
  pageType: page.pageType,
  census: { pageId: page.id },
  title,
  description: firstText(page),
  body: <ContentPage page={page} isHome={page.path === '/'} data={blocks} />,
});

export const content = pageKind({
  name: 'content',
  match: (path, data) => (path === '/' ? undefined : data.pages.find((p) => p.path === path)),
  load: async (request, page: Page) => ({ page, blocks: await loadBlockData(request, page) }),
  view: (_request, { page, blocks }) => contentPageView(page, blocks, page.title),
});
