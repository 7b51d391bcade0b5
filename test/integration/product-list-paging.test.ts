/**
 * A collection larger than a page, on SQLite and PostgreSQL: /shop shows the first PRODUCT_LIST_PAGE_SIZE products
 * with a pager, /shop/page/N the next ones in the site file's order, and addresses that are not pages of it answer
 * the not-found page; a grid block without a limit shows one page's worth and no more.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generatedSite } from '../../bench/generatedSite';
import { buildApp } from '../../src/server/app';
import { PRODUCT_LIST_PAGE_SIZE } from '../../src/modules/catalog/catalog';
import { seedSite } from '../support/cartSite';
import { forEachEngine } from '../support/engines';

const HOST = 'big.test';
const COUNT = PRODUCT_LIST_PAGE_SIZE * 2 + 7;

forEachEngine((engine, getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seedSite(getDb(), generatedSite(COUNT, { host: HOST }));
    app = await buildApp({ db: getDb(), engine });
  });
  afterAll(async () => app?.close());

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: HOST } });
  const cardNames = (html: string) => [...html.matchAll(/class="product-card__link">([^<]+)</g)].map((m) => m[1]);
  const numbers = (html: string) => cardNames(html).map((name) => Number(/ (\d+)$/.exec(name!)?.[1]));

  it(`shows ${PRODUCT_LIST_PAGE_SIZE} products a page, in order, with a pager`, async () => {
    const first = await get('/shop');
    expect(first.statusCode).toBe(200);
    expect(numbers(first.body)).toEqual(Array.from({ length: PRODUCT_LIST_PAGE_SIZE }, (_, i) => i + 1));
    expect(first.body).toContain('<p class="collection-header__page">Page 1 of 3</p>');
    expect(first.body).toContain('<nav class="pager" aria-label="Pages">');
    expect(first.body).toContain('<a class="pager__page" href="/shop" aria-current="page">');
    expect(first.body).toContain('<a class="pager__step" href="/shop/page/2" rel="next">Next');
    expect(first.body).not.toContain('rel="prev"');

    const second = await get('/shop/page/2');
    expect(second.statusCode).toBe(200);
    expect(numbers(second.body)[0]).toBe(PRODUCT_LIST_PAGE_SIZE + 1);
    expect(second.body).toContain('<title>Shop — page 2 of 3 — Big Shop</title>');
    expect(second.body).toContain('<a class="pager__step" href="/shop" rel="prev">Previous');

    const last = await get('/shop/page/3');
    expect(numbers(last.body)).toEqual([...Array(7).keys()].map((i) => PRODUCT_LIST_PAGE_SIZE * 2 + 1 + i));
    expect(last.body).not.toContain('rel="next"');
  });

  it('answers the not-found page for addresses that are not pages of the collection', async () => {
    for (const url of [
      '/shop/page/4',
      '/shop/page/1',
      '/shop/page/0',
      '/shop/page/02',
      '/shop/page/x',
      '/shop/page/2/more',
      '/shop/page',
      '/shop/page/99999999999',
    ]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('keeps a grid block without a limit to one page of products', async () => {
    const home = await get('/');
    expect(home.statusCode).toBe(200);
    expect(cardNames(home.body)).toHaveLength(PRODUCT_LIST_PAGE_SIZE);
  });

  it('keeps one page for a small collection: no pager', async () => {
    const small = generatedSite(3, { host: 'small.test', id: 'small' });
    await seedSite(getDb(), small);
    const page = await app.inject({ method: 'GET', url: '/shop', headers: { host: 'small.test' } });
    expect(cardNames(page.body)).toHaveLength(3);
    expect(page.body).not.toContain('class="pager"');
  });
});
