/**
 * Every page kind a site path can be, in the order they are tried: the first whose `match` takes the path renders
 * it. A path none takes is the site's not-found page (./pages/notFound.tsx). Pages made for one visitor (checkout,
 * order confirmed, the cart with its lines …) are not here: they are per-visitor kinds (./visitorPageKind.ts) in their
 * modules, registered by the composition (src/server/routes/visitorPages.ts).
 */
import type { PageKind } from './pageKind';
import { blogCategory } from './pages/blogCategory';
import { blogList } from './pages/blogList';
import { blogPost } from './pages/blogPost';
import { blogTag } from './pages/blogTag';
import { cart } from './pages/cart';
import { content } from './pages/content';
import { home } from './pages/home';
import { productDetail } from './pages/productDetail';
import { productList } from './pages/productList';
import { search } from './pages/search';

export const PAGE_KINDS: readonly PageKind[] = [
  // The platform's own paths first: a site page cannot hide them.
  cart,
  search,
  // The site file's pages, then its collections (a page at a collection's path wins over the collection).
  home,
  content,
  productList,
  productDetail,
  blogList,
  blogPost,
  blogCategory,
  blogTag,
];
