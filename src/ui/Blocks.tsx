import type { CurrencyCode } from '../core/currency';
import type { ProductForms } from '../modules/cart';
import type { Block, Collection, Form, Post, Product } from '../modules/site';
import { FormBlock } from './FormBlock';
import { Gallery } from './Gallery';
import type { UiLabels } from './labels';
import { Paragraphs } from './Layout';
import { PostList } from './Blog';
import { ProductFeature } from './ProductFeature';
import { ProductGrid } from './ProductCard';
import { ResponsiveImage } from './ResponsiveImage';
import { VideoBlock } from './VideoBlock';
import { WaitlistBlock } from './WaitlistBlock';

/** Everything the blocks of one page need, loaded before rendering (rendering itself does no I/O). */
export interface BlockData {
  siteId: string;
  currency: CurrencyCode;
  labels: UiLabels;
  collections: Map<string, Collection>;
  /** Products per collection id (productGrid blocks). */
  productsByCollection: Map<string, Product[]>;
  /** Products by id (product blocks). */
  products: Map<string, Product>;
  /** The products waitlist blocks name ("Coming soon"), shown on the storefront or not yet (issue 26). */
  comingProducts?: Map<string, Product>;
  forms: Map<string, Form>;
  /** The site's product forms (for add buttons of products with a form). */
  productForms: ProductForms;
  postsByCollection: Map<string, Post[]>;
  /** Whether the site has a CAPTCHA for forms that ask for one (its provider is not 'none'). */
  formCaptcha?: boolean;
}

export function Blocks({ blocks, data }: { blocks: Block[]; data: BlockData }) {
  let imagesSeen = 0;
  return (
    <>
      {blocks.map((block, i) => {
        switch (block.type) {
          case 'heading': {
            const Tag = (['h1', 'h2', 'h3'] as const)[block.level - 1] ?? 'h2';
            return (
              <Tag key={i} className={block.level === 1 ? 'page-title' : undefined}>
                {block.text}
              </Tag>
            );
          }
          case 'text':
            return <Paragraphs key={i} className="page-block-text" text={block.text} />;
          case 'image': {
            const priority = imagesSeen++ === 0 && i < 3 ? 'high' : undefined;
            const img = (
              <ResponsiveImage
                siteId={data.siteId}
                image={block.image}
                sizes="(min-width: 1160px) 1160px, 100vw"
                displayWidth={1000}
                priority={priority}
              />
            );
            return (
              <figure key={i} className="page-block-image">
                {block.link ? <a href={block.link}>{img}</a> : img}
              </figure>
            );
          }
          case 'gallery': {
            // Its first image is the page's first large one when no image came before it near the top.
            const priority = imagesSeen++ === 0 && i < 3;
            return <Gallery key={i} siteId={data.siteId} block={block} index={i} priority={priority} />;
          }
          case 'productGrid': {
            const collection = data.collections.get(block.collectionId);
            const products = (data.productsByCollection.get(block.collectionId) ?? []).slice(0, block.limit);
            if (!collection) return null;
            return (
              <ProductGrid
                key={i}
                products={products}
                headingLevel={3}
                ctx={{
                  siteId: data.siteId,
                  currency: data.currency,
                  labels: data.labels,
                  collectionSlug: collection.slug,
                  productForms: data.productForms,
                }}
              />
            );
          }
          case 'product': {
            const product = data.products.get(block.productId);
            const collection = product && data.collections.get(product.collectionId);
            if (!product || !collection) return null;
            return (
              <ProductFeature
                key={i}
                product={product}
                ctx={{
                  siteId: data.siteId,
                  currency: data.currency,
                  labels: data.labels,
                  collectionSlug: collection.slug,
                  productForms: data.productForms,
                }}
              />
            );
          }
          case 'form': {
            const form = data.forms.get(block.formId);
            return form ? (
              <FormBlock
                key={i}
                index={i}
                form={form}
                selectValueLabel={data.labels.selectValue}
                captcha={form.captcha && (data.formCaptcha ?? true)}
              />
            ) : null;
          }
          case 'productWaitlist': {
            const form = data.forms.get(block.formId);
            const product = block.productId
              ? (data.comingProducts?.get(block.productId) ?? data.products.get(block.productId) ?? null)
              : null;
            return form ? (
              <WaitlistBlock
                key={i}
                index={i}
                form={form}
                product={product}
                selectValueLabel={data.labels.selectValue}
                captcha={form.captcha && (data.formCaptcha ?? true)}
              />
            ) : null;
          }
          case 'posts': {
            const collection = data.collections.get(block.collectionId);
            const posts = (data.postsByCollection.get(block.collectionId) ?? []).slice(0, block.limit);
            if (!collection) return null;
            return (
              <PostList key={i} posts={posts} siteId={data.siteId} collectionSlug={collection.slug} headingLevel={3} />
            );
          }
          case 'video':
            return <VideoBlock key={i} block={block} siteId={data.siteId} index={i} />;
          default:
            return null;
        }
      })}
    </>
  );
}
