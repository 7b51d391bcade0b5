/** Loads what a content page's blocks show: one query per referenced collection, product or form. */
import { EVERYTHING } from '../core/publishing';
import * as catalog from '../modules/catalog';
import type { Page, Product } from '../modules/site';
import type { BlockData } from '../ui/Blocks';
import type { PageRequest } from './pageKind';

export async function loadBlockData(
  { db, site, currency, data: siteData, shows, liveAt }: PageRequest,
  page: Page,
): Promise<BlockData> {
  const data: BlockData = {
    siteId: site.id,
    currency,
    labels: siteData.labels,
    collections: new Map(siteData.collections.map((c) => [c.id, c])),
    productsByCollection: new Map(),
    products: new Map(),
    forms: new Map(),
    productForms: siteData.productForms,
    postsByCollection: new Map(),
    formCaptcha: (site.settings.captcha?.provider ?? 'altcha') !== 'none',
  };
  const productIds: string[] = [];
  /** The products waitlists are for: usually not on the storefront yet (issue 26), named all the same. */
  const comingIds: string[] = [];
  await Promise.all(
    page.blocks.map(async (block) => {
      switch (block.type) {
        case 'productGrid': {
          const products = await catalog.listProducts(
            db,
            site.id,
            block.collectionId,
            { offset: 0, limit: block.limit ?? catalog.PRODUCT_LIST_PAGE_SIZE },
            liveAt,
          );
          shows(products);
          data.productsByCollection.set(block.collectionId, products);
          break;
        }
        case 'product':
          productIds.push(block.productId);
          break;
        case 'form':
        case 'productWaitlist': {
          if (block.type === 'productWaitlist' && block.productId) comingIds.push(block.productId);
          const form = await catalog.getForm(db, site.id, block.formId);
          if (form) data.forms.set(form.id, form);
          break;
        }
        case 'posts':
          data.postsByCollection.set(
            block.collectionId,
            await catalog.listPosts(db, site.id, block.collectionId, block.limit, liveAt),
          );
          break;
        default:
          break;
      }
    }),
  );
  const [products, coming]: [Product[], Product[]] = await Promise.all([
    catalog.getProducts(db, site.id, productIds, liveAt),
    catalog.getProducts(db, site.id, comingIds, EVERYTHING),
  ]);
  shows(products);
  products.forEach((p) => data.products.set(p.id, p));
  data.comingProducts = new Map(coming.map((p) => [p.id, p]));
  return data;
}
